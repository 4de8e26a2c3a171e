import { cameraKeywords } from '@lakecams/contracts';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { historyWithImage, type ImageHistory } from '../src/camera/image-history.ts';
import { FakeEventSource, image, renderAt, stubApi, webcam } from './fixtures.tsx';

const NAME = 'Rapperswil-Seedamm';
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

function stubCamera(histories: Record<string, ImageHistory | null> = { today: TODAY, '2026-11-21': YESTERDAY }) {
  return stubApi({
    '/api/Webcam/GetImageHistory': (url) => {
      const history = histories[url.searchParams.get('day') ?? 'today'];
      return history
        ? Response.json(history)
        : Response.json({ statusCode: 404, error: 'Not Found', message: 'x' }, { status: 404 });
    },
    '/api/Webcam/GetCameras': (url) =>
      Response.json(url.searchParams.get('name') === NAME ? [webcam(1, NAME, { distance: 6, angle: 70 })] : []),
  });
}

const shownPicture = () => screen.getByRole('img', { name: new RegExp(`^Webcam ${NAME}`) });

describe('the camera page', () => {
  beforeEach(() => vi.stubGlobal('EventSource', FakeEventSource));
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('is headed by the camera name and shows its current picture', async () => {
    // Two minutes after the latest picture (12:00 in Zurich): the camera delivers.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-22T11:02:00Z') });
    stubCamera();
    await renderAt(`/webcam/${NAME}`);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(NAME);
    await screen.findByRole('slider');
    expect(shownPicture().getAttribute('src')).toBe(`/api/Image/Get/camera/${NAME}/202611221200.jpg`);
    expect(screen.getByText('Aktuelles Bild')).toBeTruthy();
    expect(screen.getByText('Sichtweite').nextElementSibling?.textContent).toBe('6 km');
  });

  /** The picture's frame laid out `width` CSS px wide on a screen of `density`. */
  function layOut(width: number, density: number) {
    vi.spyOn(window, 'devicePixelRatio', 'get').mockReturnValue(density);
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ width } as DOMRect);
  }
  const noteRoom = () => document.querySelector('figure.camera-view > figcaption + .quality-note-room');

  it("keeps the quality note's room between the caption and the time controls before the picture has loaded, where a visitor's picture will be blown up", async () => {
    layOut(358, 2);
    stubCamera();
    await renderAt(`/webcam/${NAME}`);
    await screen.findByRole('slider');
    // jsdom loads no picture: no note yet, its room already kept.
    expect(noteRoom()?.className).toBe('quality-note-room quality-note-room--kept');
    expect(noteRoom()?.textContent).toBe('');
    expect(noteRoom()?.closest('.time-travel')?.querySelector('.camera-view + .time-controls')).not.toBeNull();
  });

  it("decides on the room by the first view's picture while that stands in for the hidden page", async () => {
    // The page removes the first view once it has rendered.
    const addFirstView = () => {
      const firstView = document.createElement('div');
      firstView.id = 'first-view';
      firstView.innerHTML = '<figure></figure>';
      document.body.append(firstView);
    };
    addFirstView();
    // Only the first view is laid out; the page's own frame has no size yet.
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      return { width: this.closest('#first-view') ? 358 : 0 } as DOMRect;
    });
    const density = vi.spyOn(window, 'devicePixelRatio', 'get').mockReturnValue(1);
    stubCamera();
    const view = await renderAt(`/webcam/${NAME}`);
    await screen.findByRole('slider');
    expect(noteRoom()?.className).toBe('quality-note-room');
    expect(document.getElementById('first-view')).toBeNull();
    view.unmount();
    addFirstView();
    density.mockReturnValue(2);
    await renderAt(`/webcam/${NAME}`);
    await screen.findByRole('slider');
    expect(noteRoom()?.className).toBe('quality-note-room quality-note-room--kept');
  });

  it("keeps no room where a visitor's picture has the pixels it is shown with", async () => {
    layOut(358, 1);
    stubCamera();
    await renderAt(`/webcam/${NAME}`);
    await screen.findByRole('slider');
    expect(noteRoom()?.className).toBe('quality-note-room');
  });

  it('sets meta keywords built from the name and removes them on leaving', async () => {
    stubCamera();
    const view = await renderAt(`/webcam/${NAME}`);
    const keywords = () => document.head.querySelector('meta[name="keywords"]')?.getAttribute('content');
    expect(keywords()).toBe(cameraKeywords(NAME));
    expect(keywords()).toContain('Rapperswil-Seedamm, Rapperswil, Seedamm, Webcam');
    view.unmount();
    expect(keywords()).toBeUndefined();
  });

  it('steps through the day with the slider and the buttons', async () => {
    stubCamera();
    await renderAt(`/webcam/${NAME}`);
    const slider = (await screen.findByRole('slider')) as HTMLInputElement;
    expect([slider.min, slider.max, slider.value]).toEqual(['0', '2', '2']);
    fireEvent.change(slider, { target: { value: '0' } });
    await waitFor(() => expect(shownPicture().getAttribute('src')).toContain('/202611221150.jpg'));
    expect(slider.getAttribute('aria-valuetext')).toBe('11:50 Uhr');
    fireEvent.click(screen.getByRole('button', { name: /Später/ }));
    await waitFor(() => expect(shownPicture().getAttribute('src')).toContain('/202611221155.jpg'));
    expect(screen.queryByText('Aktuelles Bild')).toBeNull();
  });

  it('plays the day as a timelapse', async () => {
    stubCamera();
    await renderAt(`/webcam/${NAME}`);
    await screen.findByRole('slider');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      fireEvent.click(screen.getByRole('button', { name: /Zeitraffer abspielen/ }));
      await waitFor(() => expect(shownPicture().getAttribute('src')).toContain('/202611221150.jpg'));
      await act(() => vi.advanceTimersByTimeAsync(2_000));
      await waitFor(() => expect(shownPicture().getAttribute('src')).toContain('/202611221200.jpg'));
      expect(screen.getByRole('button', { name: /Zeitraffer abspielen/ }).getAttribute('aria-pressed')).toBe('false');
    } finally {
      vi.useRealTimers();
    }
  });

  it('offers the earlier days', async () => {
    stubCamera();
    await renderAt(`/webcam/${NAME}`);
    const day = (await screen.findByRole('combobox', { name: 'Tag' })) as HTMLSelectElement;
    expect([...day.options].map((option) => option.value)).toEqual(['2026-11-22', '2026-11-21']);
    fireEvent.change(day, { target: { value: '2026-11-21' } });
    await waitFor(() => expect(shownPicture().getAttribute('src')).toContain('/202611211605.jpg'));
    expect((screen.getByRole('slider') as HTMLInputElement).max).toBe('1');
  });

  it('shows a new picture as it arrives while the viewer is at the latest', async () => {
    stubCamera();
    await renderAt(`/webcam/${NAME}`);
    await screen.findByRole('slider');
    await waitFor(() => expect(screen.getByText('Blickwinkel')).toBeTruthy());
    act(() => FakeEventSource.open().at(-1)?.emit('image', image(1, '202611221205')));
    await waitFor(() => expect(shownPicture().getAttribute('src')).toContain('/202611221205.jpg'));
    expect((screen.getByRole('slider') as HTMLInputElement).max).toBe('3');
  });

  it('stays on the chosen picture when an older one of the day arrives late', async () => {
    stubCamera();
    await renderAt(`/webcam/${NAME}`);
    const slider = (await screen.findByRole('slider')) as HTMLInputElement;
    await waitFor(() => expect(screen.getByText('Blickwinkel')).toBeTruthy());
    fireEvent.change(slider, { target: { value: '1' } });
    await waitFor(() => expect(shownPicture().getAttribute('src')).toContain('/202611221155.jpg'));
    act(() => FakeEventSource.open().at(-1)?.emit('image', image(1, '202611221145')));
    await waitFor(() => expect(slider.max).toBe('3'));
    expect(slider.value).toBe('2');
    expect(slider.getAttribute('aria-valuetext')).toBe('11:55 Uhr');
    expect(shownPicture().getAttribute('src')).toContain('/202611221155.jpg');
  });

  it('says so when an administrator deletes the camera while the page is open, and ignores other cameras', async () => {
    stubCamera();
    await renderAt(`/webcam/${NAME}`);
    await screen.findByRole('slider');
    await waitFor(() => expect(screen.getByText('Blickwinkel')).toBeTruthy());
    act(() => FakeEventSource.open().at(-1)?.emit('removed', { webcamId: 99, camera: 'Anderswo' }));
    expect(screen.getByRole('slider')).toBeTruthy();
    act(() => FakeEventSource.open().at(-1)?.emit('removed', { webcamId: 1, camera: NAME }));
    await screen.findByText('Diese Webcam wurde soeben entfernt; ihre Bilder sind nicht mehr verfügbar.');
    expect(screen.queryByRole('slider')).toBeNull();
    expect(screen.getByRole('link', { name: 'Alle Webcams' }).getAttribute('href')).toBe('/webcams');
  });

  it('shows a friendly "not found" with a way home for an unknown camera', async () => {
    stubCamera({ today: null });
    await renderAt('/webcam/Gibt-es-nicht');
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Webcam nicht gefunden');
    expect(screen.getByRole('link', { name: 'Zur Startseite' }).getAttribute('href')).toBe('/');
  });

  it('falls back to the latest day with pictures when today has none yet', async () => {
    stubCamera({ today: { ...TODAY, images: [], days: ['2026-11-21'] }, '2026-11-21': YESTERDAY });
    await renderAt(`/webcam/${NAME}`);
    await waitFor(() => expect(shownPicture().getAttribute('src')).toContain('/202611211605.jpg'));
  });
});

describe('historyWithImage', () => {
  it('adds a live image to the shown day in order, and its day to the days', () => {
    const later = historyWithImage(TODAY, image(1, '202611221205'));
    expect(later.images.map((i) => i.name)).toEqual(['202611221150', '202611221155', '202611221200', '202611221205']);
    const tomorrow = historyWithImage(TODAY, image(1, '202611230000'));
    expect(tomorrow.days).toEqual(['2026-11-23', '2026-11-22', '2026-11-21']);
    expect(tomorrow.images).toBe(TODAY.images);
    expect(historyWithImage(TODAY, image(1, '202611221200', { direction: 10 })).images.at(-1)?.direction).toBe(10);
  });
});
