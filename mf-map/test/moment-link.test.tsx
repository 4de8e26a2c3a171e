import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useEffect, useRef } from 'react';
import { createMemoryRouter, MemoryRouter, RouterProvider, useLocation, useNavigate } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImageHistory } from '../src/camera/image-history.ts';
import { MALFORMED_NOTE, momentRequest, momentStep, unknownMomentNote } from '../src/camera/moment-link.ts';
import { MapRoutes } from '../src/map-routes.tsx';
import { zoomDescriptorUrl } from '../src/api/picture-urls.ts';
import { viewerSource } from '../src/viewer/viewer-source.ts';
import { FakeEventSource, image, stubApi, webcam } from './fixtures.tsx';

const NAME = 'Seedamm';
const TODAY: ImageHistory = {
  camera: NAME,
  day: '2026-11-22',
  days: ['2026-11-22', '2026-11-21'],
  images: ['202611221150', '202611221155', '202611221200'].map((name) => image(1, name)),
  frozenSince: null,
};
const YESTERDAY: ImageHistory = {
  ...TODAY,
  day: '2026-11-21',
  images: ['202611211600', '202611211605'].map((name) => image(1, name)),
};

describe('what a moment link asks for', () => {
  it('reads `t` as a minute on the calendar, or as nonsense', () => {
    expect(momentRequest(null)).toEqual({ kind: 'current' });
    expect(momentRequest('202611221155')).toEqual({ kind: 'moment', name: '202611221155', day: '2026-11-22' });
    for (const t of ['2026112211', '20261122115x', '202613221155', '202602301200', '202611222460', ' 202611221155'])
      expect([t, momentRequest(t).kind]).toEqual([t, 'malformed']);
  });

  it('shows a loaded moment, loads its day, or falls back with a note', () => {
    const history = { day: '2026-11-22', days: TODAY.days, names: TODAY.images.map((i) => i.name) };
    expect(momentStep(momentRequest('202611221155'), history)).toEqual({ step: 'show', name: '202611221155' });
    expect(momentStep(momentRequest('202611211600'), history)).toEqual({ step: 'load-day', day: '2026-11-21' });
    expect(momentStep(momentRequest('202611221157'), history)).toEqual({
      step: 'fall-back',
      note: unknownMomentNote('202611221157'),
    });
    expect(momentStep(momentRequest('201911221155'), history).step).toBe('fall-back');
    expect(momentStep(momentRequest('morgen'), history)).toEqual({ step: 'fall-back', note: MALFORMED_NOTE });
    expect(momentStep(momentRequest(null), { ...history, day: '2026-11-21' })).toEqual({
      step: 'load-day',
      day: '2026-11-22',
    });
    expect(unknownMomentNote('202611221157')).toMatch(/^Vom .*22\..*11:57 Uhr gibt es kein Bild \(mehr\)/);
  });
});

describe('the viewer opens', () => {
  it('the picture itself when the screen holds its pixels, else tiles of the visitor’s level', () => {
    expect(viewerSource(NAME, '202611221155', { quality: 'POOR', width: 480 }, 1280)).toEqual({
      type: 'image',
      url: `/api/Image/Get/camera/${NAME}/202611221155.jpg`,
    });
    expect(viewerSource(NAME, '202611221155', { quality: 'HIGH', width: 1920 }, 1280)).toEqual({
      type: 'tiles',
      url: zoomDescriptorUrl(NAME, '202611221155', 'HIGH'),
    });
    expect(zoomDescriptorUrl(NAME, '202611221155', 'HIGH')).toBe(
      `/api/Image/Zoom/camera/${NAME}/202611221155.dzi?level=HIGH`,
    );
  });
});

describe('the camera page keeps its moment in the URL', () => {
  beforeEach(() => {
    vi.stubGlobal('EventSource', FakeEventSource);
    stubApi({
      '/api/Webcam/GetImageHistory': (url) =>
        Response.json(url.searchParams.get('day') === '2026-11-21' ? YESTERDAY : TODAY),
      '/api/Webcam/GetCameras': () => Response.json([webcam(1, NAME)]),
    });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  function open(path: string) {
    const router = createMemoryRouter([{ path: '*', element: <MapRoutes /> }], { initialEntries: [path] });
    render(<RouterProvider router={router} />);
    return router;
  }
  const shown = async (name: string) =>
    waitFor(() =>
      expect(screen.getByRole('img', { name: /^Webcam Seedamm/ }).getAttribute('src')).toBe(
        `/api/Image/Get/camera/${NAME}/${name}.jpg`,
      ),
    );

  it('opens the picture `t` names, on its own day too', async () => {
    open(`/webcam/${NAME}?t=202611221155`);
    await shown('202611221155');
    cleanup();
    const router = open(`/webcam/${NAME}?t=202611211600`);
    await shown('202611211600');
    expect((screen.getByRole('combobox') as HTMLSelectElement).value).toBe('2026-11-21');
    expect(router.state.location.search).toBe('?t=202611211600');
  });

  it('falls back to the current picture with a note for a malformed or unknown `t`', async () => {
    const router = open(`/webcam/${NAME}?t=gestern`);
    await shown('202611221200');
    // Among the page's notes (these pictures are days old: the camera is also said to be offline).
    await waitFor(async () =>
      expect((await screen.findAllByRole('status')).map((note) => note.textContent)).toContain(MALFORMED_NOTE),
    );
    await waitFor(() => expect(router.state.location.search).toBe(''));
    cleanup();
    open(`/webcam/${NAME}?t=202611211630`);
    await screen.findByText(unknownMomentNote('202611211630'));
    await shown('202611221200');
  });

  it('replaces `t` as the slider moves, adds an entry for another day, and follows back and forward', async () => {
    const router = open(`/webcam/${NAME}`);
    const slider = (await screen.findByRole('slider')) as HTMLInputElement;
    fireEvent.change(slider, { target: { value: '0' } });
    await waitFor(() => expect(router.state.location.search).toBe('?t=202611221150'));
    expect(router.state.historyAction).toBe('REPLACE');
    fireEvent.change(slider, { target: { value: '1' } });
    await waitFor(() => expect(router.state.location.search).toBe('?t=202611221155'));
    fireEvent.change(screen.getByRole('combobox'), { target: { value: '2026-11-21' } });
    await waitFor(() => expect(router.state.location.search).toBe('?t=202611211605'));
    expect(router.state.historyAction).toBe('PUSH');
    await shown('202611211605');
    await act(() => router.navigate(-1));
    await shown('202611221155');
    expect((screen.getByRole('combobox') as HTMLSelectElement).value).toBe('2026-11-22');
    await act(() => router.navigate(1));
    await shown('202611211605');
    // The latest picture of the newest day is the current one: its URL names no moment.
    await act(() => router.navigate(-1));
    await shown('202611221155');
    fireEvent.change(screen.getByRole('slider'), { target: { value: '2' } });
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('goes back from the viewer to the picture before it, even before the page behind has followed its step', async () => {
    // Back comes in the very commit that shows the viewer's step. A browser's back (popstate) is rendered at
    // once, ahead of anything the page still has pending; a router update inside a popstate event does the same.
    function BackAt({ search }: { search: string }) {
      const location = useLocation();
      const navigate = useNavigate();
      const done = useRef(false);
      useEffect(() => {
        if (location.search !== search || done.current) return;
        done.current = true;
        const back = () => void navigate(-1);
        window.addEventListener('popstate', back, { once: true });
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, [location.search, search, navigate]);
      return null;
    }
    let search = '';
    let changes = 0;
    let go: (delta: number) => void = () => {};
    function Spy() {
      const location = useLocation();
      const navigate = useNavigate();
      go = (delta) => void navigate(delta);
      useEffect(() => {
        search = location.search;
        // The URL and the page must not chase each other: that ends in React giving up (or in a hang).
        if (++changes > 20) throw new Error(`the URL keeps changing: ${location.search}`);
      }, [location.search]);
      return null;
    }
    render(
      <MemoryRouter initialEntries={[`/webcam/${NAME}?t=202611221150`]} useTransitions={false}>
        <MapRoutes />
        <BackAt search="?t=202611221155&zoom=1" />
        <Spy />
      </MemoryRouter>,
    );
    await shown('202611221150');
    fireEvent.click(screen.getByRole('button', { name: 'Vergrössern' }));
    const viewer = await screen.findByRole('dialog', { name: /vergrössert/ });
    fireEvent.click(within(viewer).getByRole('button', { name: 'Späteres Bild' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Whatever React still has to do is done: the URL and the page stay at the picture before the viewer.
    await act(async () => {});
    expect(search).toBe('?t=202611221150');
    await shown('202611221150');
    // Forward opens the viewer at its step again; closing it keeps that picture.
    act(() => go(1));
    expect(search).toBe('?t=202611221155&zoom=1');
    await screen.findByRole('dialog', { name: /vergrössert/ });
    fireEvent.click(screen.getByRole('button', { name: 'Schliessen' }));
    await waitFor(() => expect(search).toBe('?t=202611221155'));
    await shown('202611221155');
  });
});
