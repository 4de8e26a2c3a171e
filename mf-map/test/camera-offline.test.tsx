import { historyWithImage, type ImageHistory } from '../src/camera/image-history.ts';
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { offlineSince } from '../src/camera/camera-offline.ts';
import { FakeEventSource, image, renderAt, stubApi, webcam } from './fixtures.tsx';

const NAME = 'Ufenau';
/** The latest picture at 12:00 in Zurich (11:00 UTC); the camera takes one every 10 minutes. */
const TODAY: ImageHistory = {
  camera: NAME,
  day: '2026-11-22',
  days: ['2026-11-22', '2026-11-21'],
  images: ['202611221150', '202611221200'].map((name) => image(4, name)),
  frozenSince: null,
};
/** The same picture since 11:50: the 12:00 one has the 11:50 one's bytes. */
const FROZEN: ImageHistory = { ...TODAY, frozenSince: '202611221150' };

function openAt(now: string, history = TODAY) {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date(now) });
  stubApi({
    '/api/Webcam/GetImageHistory': () => Response.json(history),
    '/api/Webcam/GetCameras': () => Response.json([webcam(4, NAME, { intervalMin: 10 })]),
  });
  return renderAt(`/webcam/${NAME}`);
}

describe('the camera page of a camera that stopped delivering', () => {
  beforeEach(() => vi.stubGlobal('EventSource', FakeEventSource));
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('says since when it is offline instead of presenting the old picture as the current one', async () => {
    await openAt('2026-11-22T11:31:00Z');
    await screen.findByRole('slider');
    expect(screen.getByText(/^Kamera offline/).textContent).toBe('Kamera offline seit 22.11.2026, 12:00 Uhr');
    expect(screen.getByText(/^Kamera offline/).getAttribute('role')).toBe('status');
    expect(screen.queryByText('Aktuelles Bild')).toBeNull();
  });

  it('shows the current picture as such within three intervals', async () => {
    await openAt('2026-11-22T11:29:00Z');
    await screen.findByRole('slider');
    expect(screen.getByText('Aktuelles Bild')).toBeTruthy();
    expect(screen.queryByText(/Kamera offline/)).toBeNull();
  });
});

describe('the camera page of a camera that delivers the same picture again and again', () => {
  beforeEach(() => vi.stubGlobal('EventSource', FakeEventSource));
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
  const live = (name: string, frozen?: boolean) =>
    act(() =>
      FakeEventSource.open()
        .at(-1)
        ?.emit('image', { ...image(4, name), ...(frozen === undefined ? {} : { frozen }) }),
    );

  it('says it is offline since the picture froze, though its pictures are new, until a different one arrives', async () => {
    // Five minutes after the 12:00 picture: not silent.
    await openAt('2026-11-22T11:05:00Z', FROZEN);
    await screen.findByRole('slider');
    expect(screen.getByText(/^Kamera offline/).textContent).toBe('Kamera offline seit 22.11.2026, 11:50 Uhr');
    expect(screen.queryByText('Aktuelles Bild')).toBeNull();
    live('202611221210', true);
    expect(screen.getByText(/^Kamera offline/).textContent).toBe('Kamera offline seit 22.11.2026, 11:50 Uhr');
    live('202611221220', false);
    expect(screen.queryByText(/Kamera offline/)).toBeNull();
    expect(screen.getByText('Aktuelles Bild')).toBeTruthy();
  });

  it('goes offline when a live picture is frozen, since the picture before it', async () => {
    await openAt('2026-11-22T11:05:00Z');
    await screen.findByRole('slider');
    expect(screen.getByText('Aktuelles Bild')).toBeTruthy();
    live('202611221210', true);
    expect(screen.getByText(/^Kamera offline/).textContent).toBe('Kamera offline seit 22.11.2026, 12:00 Uhr');
    live('202611221220', true);
    // A picture announced again without the flag (a moved position) changes nothing.
    live('202611221220');
    expect(screen.getByText(/^Kamera offline/).textContent).toBe('Kamera offline seit 22.11.2026, 12:00 Uhr');
    live('202611221230', false);
    expect(screen.queryByText(/Kamera offline/)).toBeNull();
    expect(screen.getByText('Aktuelles Bild')).toBeTruthy();
  });

  it('says since when it froze also once it has gone silent', async () => {
    await openAt('2026-11-22T11:31:00Z', FROZEN);
    await screen.findByRole('slider');
    expect(screen.getByText(/^Kamera offline/).textContent).toBe('Kamera offline seit 22.11.2026, 11:50 Uhr');
  });
});

describe('historyWithImage and a frozen camera', () => {
  it('starts the run at the newest picture before a frozen one, keeps it, and ends it with a different one', () => {
    const frozen = historyWithImage(TODAY, { ...image(4, '202611221210'), frozen: true });
    expect(frozen.frozenSince).toBe('202611221200');
    // Kept in the history as any picture.
    expect(frozen.images.at(-1)).toEqual(image(4, '202611221210'));
    expect(historyWithImage(FROZEN, { ...image(4, '202611221210'), frozen: true }).frozenSince).toBe('202611221150');
    expect(historyWithImage(FROZEN, { ...image(4, '202611221210'), frozen: false }).frozenSince).toBeNull();
    expect(historyWithImage(FROZEN, image(4, '202611221210')).frozenSince).toBe('202611221150');
    // A late older picture or another day's says nothing about the newest one.
    expect(historyWithImage(FROZEN, { ...image(4, '202611221155'), frozen: false }).frozenSince).toBe('202611221150');
    expect(historyWithImage(FROZEN, { ...image(4, '202611230000'), frozen: false }).frozenSince).toBe('202611221150');
    // The day's first picture frozen: the run began yesterday, the earliest known picture of it is this one.
    const empty = { ...TODAY, images: [] };
    expect(historyWithImage(empty, { ...image(4, '202611220005'), frozen: true }).frozenSince).toBe('202611220005');
  });
});

describe('offlineSince', () => {
  const at = (iso: string) => new Date(iso).getTime();
  it('is the newest picture once three intervals passed without another, in Zurich time across summer time', () => {
    expect(offlineSince('202611221200', 10, at('2026-11-22T11:30:00Z'))).toBeNull();
    expect(offlineSince('202611221200', 10, at('2026-11-22T11:30:01Z'))).toBe('202611221200');
    expect(offlineSince('202607011200', 5, at('2026-07-01T10:15:01Z'))).toBe('202607011200');
    expect(offlineSince('202607011200', 5, at('2026-07-01T10:14:59Z'))).toBeNull();
    expect(offlineSince(undefined, 10, at('2026-11-22T11:30:01Z'))).toBeNull();
    expect(offlineSince('202611221200', undefined, at('2026-11-22T11:30:01Z'))).toBeNull();
  });

  it("is the frozen run's first picture while the newest picture is frozen, silent or not", () => {
    expect(offlineSince('202611221200', 10, at('2026-11-22T11:01:00Z'), '202611221140')).toBe('202611221140');
    expect(offlineSince('202611221200', 10, at('2026-11-22T12:01:00Z'), '202611221140')).toBe('202611221140');
    expect(offlineSince('202611221200', undefined, at('2026-11-22T11:01:00Z'), '202611221140')).toBe('202611221140');
    expect(offlineSince('202611221200', 10, at('2026-11-22T11:01:00Z'), null)).toBeNull();
  });
});
