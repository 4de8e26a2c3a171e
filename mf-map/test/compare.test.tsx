import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImageHistory } from '../src/camera/image-history.ts';
import { compareLayoutOf, momentRequest } from '../src/camera/moment-link.ts';
import {
  dividerAfterKey,
  MALFORMED_VERSUS_NOTE,
  missingDayNote,
  nearestByTimeOfDay,
  presetDay,
  takenAt,
  unknownVersusNote,
} from '../src/compare/compare-moments.ts';
import { MapRoutes } from '../src/map-routes.tsx';
import { FakeEventSource, image, stubApi, webcam } from './fixtures.tsx';

const NAME = 'Seedamm';
const HISTORIES: Record<string, string[]> = {
  '2026-11-22': ['202611221150', '202611221155', '202611221200'],
  '2026-11-21': ['202611211100', '202611211150', '202611211210'],
  // An archived day: one picture left.
  '2026-10-22': ['202610221405'],
};
const DAYS = Object.keys(HISTORIES).sort().reverse();

function history(day: string): ImageHistory {
  const images = (HISTORIES[day] ?? []).map((name) => image(1, name));
  return { camera: NAME, day, days: DAYS, images, frozenSince: null };
}

describe('picking picture B', () => {
  it('finds the day a preset names by the calendar', () => {
    expect(presetDay('2026-11-22', 'day')).toBe('2026-11-21');
    expect(presetDay('2026-03-01', 'day')).toBe('2026-02-28');
    expect(presetDay('2026-01-03', 'week')).toBe('2025-12-27');
    expect(presetDay('2026-11-22', 'month')).toBe('2026-10-22');
    expect(presetDay('2026-03-31', 'month')).toBe('2026-02-28');
    expect(presetDay('2028-03-31', 'month')).toBe('2028-02-29');
    expect(presetDay('2026-01-15', 'month')).toBe('2025-12-15');
    expect(presetDay('2026-11-22', 'year')).toBe('2025-11-22');
    expect(presetDay('2028-02-29', 'year')).toBe('2027-02-28');
  });

  it('takes the picture of that day nearest in time of day, the earlier of two as near', () => {
    expect(nearestByTimeOfDay(HISTORIES['2026-11-21'] ?? [], '202611221155')).toBe('202611211150');
    expect(nearestByTimeOfDay(['202611210600', '202611212300'], '202611221200')).toBe('202611210600');
    expect(nearestByTimeOfDay(['202611212300', '202611210600'], '202611221440')).toBe('202611212300');
    expect(nearestByTimeOfDay(['202611212300', '202611210600'], '202611221430')).toBe('202611210600');
    expect(nearestByTimeOfDay(['202611211150', '202611211200'], '202611221155')).toBe('202611211150');
    expect(nearestByTimeOfDay([], '202611221155')).toBeNull();
  });

  it('reads the URL: `compare` as a layout, `vs` as a minute or nonsense', () => {
    expect(compareLayoutOf(null)).toBeNull();
    expect(compareLayoutOf('side')).toBe('side');
    expect(compareLayoutOf('swipe')).toBe('swipe');
    expect(compareLayoutOf('')).toBe('side');
    expect(compareLayoutOf('karussell')).toBe('side');
    expect(momentRequest('202611211150')).toEqual({ kind: 'moment', name: '202611211150', day: '2026-11-21' });
    expect(momentRequest('gestern').kind).toBe('malformed');
    expect(takenAt('202611211150')).toBe('Aufnahme vom Samstag, 21. November 2026, 11:50 Uhr');
    expect(missingDayNote('2026-11-15')).toBe('Vom Sonntag, 15. November 2026 gibt es kein Bild.');
  });

  it('moves the swipe divider with the keys as a slider does', () => {
    expect(dividerAfterKey(50, 'ArrowRight')).toBe(55);
    expect(dividerAfterKey(50, 'ArrowUp')).toBe(55);
    expect(dividerAfterKey(50, 'ArrowLeft')).toBe(45);
    expect(dividerAfterKey(50, 'ArrowDown')).toBe(45);
    expect(dividerAfterKey(50, 'PageUp')).toBe(70);
    expect(dividerAfterKey(50, 'PageDown')).toBe(30);
    expect(dividerAfterKey(97.6, 'ArrowRight')).toBe(100);
    expect(dividerAfterKey(3, 'PageDown')).toBe(0);
    expect(dividerAfterKey(42, 'Home')).toBe(0);
    expect(dividerAfterKey(42, 'End')).toBe(100);
    expect(dividerAfterKey(42, 'a')).toBeNull();
  });
});

describe('the compare view on the camera page', () => {
  beforeEach(() => {
    vi.stubGlobal('EventSource', FakeEventSource);
    stubApi({
      '/api/Webcam/GetImageHistory': (url) => Response.json(history(url.searchParams.get('day') ?? '2026-11-22')),
      '/api/Webcam/GetCameras': () => Response.json([webcam(1, NAME)]),
      '/api/Webcam/GetImageDays': (url) => {
        const month = url.searchParams.get('month') ?? '';
        return Response.json({
          camera: NAME,
          month,
          days: DAYS.filter((day) => day.startsWith(month)).sort(),
          first: '2026-10-22',
          last: '2026-11-22',
        });
      },
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
  const params = (router: ReturnType<typeof open>) => new URLSearchParams(router.state.location.search);
  const src = (name: string) => `/api/Image/Get/camera/${NAME}/${name}.jpg`;
  const pictureB = async (name: string) =>
    waitFor(() => expect(screen.getByRole('img', { name: /^Bild B/ }).getAttribute('src')).toBe(src(name)));

  it('opens with an entry of its own holding A, finds B by a preset, and closes on back', async () => {
    const router = open(`/webcam/${NAME}?t=202611221155`);
    fireEvent.click(await screen.findByRole('button', { name: 'Vergleichen' }));
    await screen.findByRole('heading', { name: 'Vergleichen' });
    expect(router.state.historyAction).toBe('PUSH');
    expect(params(router).get('t')).toBe('202611221155');
    expect(params(router).get('compare')).toBe('side');
    expect(screen.getByRole('img', { name: /^Bild A/ }).getAttribute('src')).toBe(src('202611221155'));
    expect(screen.getByText(/Wählen Sie oben einen Zeitpunkt für Bild B/)).toBeTruthy();
    // The day slider and the time-lapse make way for the two pictures.
    expect(screen.queryByRole('slider')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Vor einem Tag' }));
    await pictureB('202611211150');
    await waitFor(() => expect(params(router).get('vs')).toBe('202611211150'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(screen.getByRole('button', { name: 'Vor einem Tag' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText(takenAt('202611211150'))).toBeTruthy();
    expect(screen.getByText(takenAt('202611221155'))).toBeTruthy();

    await act(() => router.navigate(-1));
    await screen.findByRole('slider');
    expect(screen.queryByRole('heading', { name: 'Vergleichen' })).toBeNull();
    expect(router.state.location.search).toBe('?t=202611221155');
  });

  it('says so when a preset’s day has no picture, and keeps no `vs`', async () => {
    const router = open(`/webcam/${NAME}?t=202611221155&compare=side&vs=202611211150`);
    await pictureB('202611211150');
    fireEvent.click(screen.getByRole('button', { name: 'Vor einer Woche' }));
    await screen.findByText('Vom Sonntag, 15. November 2026 gibt es kein Bild.');
    await waitFor(() => expect(params(router).has('vs')).toBe(false));
    expect(screen.queryByRole('img', { name: /^Bild B/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Vor einer Woche' }).getAttribute('aria-pressed')).toBe('true');
    // An archived day keeps what the archive kept: its only picture is the nearest.
    fireEvent.click(screen.getByRole('button', { name: 'Vor einem Monat' }));
    await pictureB('202610221405');
    expect(params(router).get('vs')).toBe('202610221405');
  });

  it('switches the layout in the URL and moves the swipe divider with the keys', async () => {
    const router = open(`/webcam/${NAME}?t=202611221155&compare=side&vs=202611211150`);
    await pictureB('202611211150');
    expect(screen.queryByRole('slider')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Schieberegler' }));
    const divider = await screen.findByRole('slider', { name: 'Trennlinie zwischen Bild A und Bild B' });
    expect(params(router).get('compare')).toBe('swipe');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(screen.getByRole('button', { name: 'Schieberegler' }).getAttribute('aria-pressed')).toBe('true');
    const over = screen.getByRole('img', { name: /^Bild B/ }) as HTMLImageElement;
    expect(divider.getAttribute('aria-valuenow')).toBe('50');
    expect(over.style.clipPath).toBe('inset(0px 0px 0px 50%)');

    fireEvent.keyDown(divider, { key: 'ArrowRight' });
    expect(divider.getAttribute('aria-valuenow')).toBe('55');
    expect(divider.getAttribute('aria-valuetext')).toBe('55 % Bild A, 45 % Bild B');
    expect(over.style.clipPath).toBe('inset(0px 0px 0px 55%)');
    fireEvent.keyDown(divider, { key: 'PageDown' });
    expect(divider.getAttribute('aria-valuenow')).toBe('35');
    fireEvent.keyDown(divider, { key: 'Home' });
    expect(divider.getAttribute('aria-valuenow')).toBe('0');
    fireEvent.keyDown(divider, { key: 'ArrowLeft' });
    expect(divider.getAttribute('aria-valuenow')).toBe('0');
    fireEvent.keyDown(divider, { key: 'End' });
    expect(divider.getAttribute('aria-valuenow')).toBe('100');
    expect(divider.style.left).toBe('100%');

    fireEvent.click(screen.getByRole('button', { name: 'Nebeneinander' }));
    await waitFor(() => expect(params(router).get('compare')).toBe('side'));
    expect(screen.queryByRole('slider')).toBeNull();
    expect(screen.getByRole('img', { name: /^Bild B/ }).getAttribute('src')).toBe(src('202611211150'));
  });

  it('follows the divider under a dragging pointer', async () => {
    open(`/webcam/${NAME}?t=202611221155&compare=swipe&vs=202611211150`);
    const divider = await screen.findByRole('slider', { name: /Trennlinie/ });
    const stage = divider.parentElement as HTMLElement;
    stage.getBoundingClientRect = () => ({ left: 100, top: 0, width: 400, height: 225 }) as DOMRect;
    fireEvent.pointerDown(stage, { clientX: 200, pointerId: 1, pointerType: 'touch' });
    expect(divider.getAttribute('aria-valuenow')).toBe('25');
    fireEvent.pointerMove(stage, { clientX: 420, pointerId: 1, pointerType: 'touch' });
    expect(divider.getAttribute('aria-valuenow')).toBe('80');
    fireEvent.pointerUp(stage, { clientX: 420, pointerId: 1, pointerType: 'touch' });
    fireEvent.pointerMove(stage, { clientX: 150, pointerId: 1, pointerType: 'touch' });
    expect(divider.getAttribute('aria-valuenow')).toBe('80');
    // A gesture the browser takes for a scroll puts the divider back.
    fireEvent.pointerDown(stage, { clientX: 300, pointerId: 2, pointerType: 'touch' });
    expect(divider.getAttribute('aria-valuenow')).toBe('50');
    fireEvent.pointerCancel(stage, { pointerId: 2, pointerType: 'touch' });
    expect(divider.getAttribute('aria-valuenow')).toBe('80');
  });

  it('opens from a link in the swipe layout, and drops a malformed or unknown `vs` with a note', async () => {
    open(`/webcam/${NAME}?t=202611221155&compare=swipe&vs=202611211150`);
    await screen.findByRole('slider', { name: /Trennlinie/ });
    await pictureB('202611211150');
    cleanup();

    let router = open(`/webcam/${NAME}?t=202611221155&compare=side&vs=vorgestern`);
    await screen.findByText(MALFORMED_VERSUS_NOTE);
    await waitFor(() => expect(params(router).has('vs')).toBe(false));
    expect(params(router).get('compare')).toBe('side');
    expect(params(router).get('t')).toBe('202611221155');
    cleanup();

    router = open(`/webcam/${NAME}?t=202611221155&compare=swipe&vs=202611211151`);
    await screen.findByText(unknownVersusNote('202611211151'));
    await waitFor(() => expect(params(router).has('vs')).toBe(false));
    expect(screen.getByRole('img', { name: /^Bild A/ }).getAttribute('src')).toBe(src('202611221155'));
  });

  it('compares with the current picture when the link names no `t`, and A on another day', async () => {
    open(`/webcam/${NAME}?compare=side&vs=202610221405`);
    await pictureB('202610221405');
    expect(screen.getByRole('img', { name: /^Bild A/ }).getAttribute('src')).toBe(src('202611221200'));
    cleanup();
    open(`/webcam/${NAME}?t=202611211210&compare=side`);
    await waitFor(() =>
      expect(screen.getByRole('img', { name: /^Bild A/ }).getAttribute('src')).toBe(src('202611211210')),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Vor einem Tag' }));
    await screen.findByText('Vom Freitag, 20. November 2026 gibt es kein Bild.');
  });

  it('picks any moment: a day with pictures of a month, then a picture of that day', async () => {
    const router = open(`/webcam/${NAME}?t=202611221155&compare=side`);
    fireEvent.click(await screen.findByRole('button', { name: 'Beliebiger Zeitpunkt' }));
    const daySelect = (await screen.findByRole('combobox', { name: 'Tag' })) as HTMLSelectElement;
    await waitFor(() => expect(daySelect.disabled).toBe(false));
    const dayOptions = within(daySelect)
      .getAllByRole('option')
      .map((option) => (option as HTMLOptionElement).value);
    expect(dayOptions).toEqual(['', '2026-11-22', '2026-11-21']);
    fireEvent.change(daySelect, { target: { value: '2026-11-21' } });
    await pictureB('202611211150');
    await waitFor(() => expect(params(router).get('vs')).toBe('202611211150'));
    // Chosen by hand, not by the preset that happens to name the same day.
    expect(screen.getByRole('button', { name: 'Vor einem Tag' }).getAttribute('aria-pressed')).toBe('false');
    const timeSelect = screen.getByRole('combobox', { name: 'Uhrzeit' }) as HTMLSelectElement;
    await waitFor(() => expect(timeSelect.value).toBe('202611211150'));
    fireEvent.change(timeSelect, { target: { value: '202611211210' } });
    await pictureB('202611211210');
    await waitFor(() => expect(params(router).get('vs')).toBe('202611211210'));
    // An earlier month with pictures.
    fireEvent.click(screen.getByRole('button', { name: 'Vorheriger Monat' }));
    await waitFor(() =>
      expect(
        within(daySelect)
          .getAllByRole('option')
          .map((option) => (option as HTMLOptionElement).value),
      ).toEqual(['', '2026-10-22']),
    );
    expect((screen.getByRole('button', { name: 'Vorheriger Monat' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(daySelect, { target: { value: '2026-10-22' } });
    await pictureB('202610221405');
  });
});
