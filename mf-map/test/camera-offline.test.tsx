import type { ImageHistory } from '../src/camera/image-history.ts';
import { cleanup, screen } from '@testing-library/react';
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
};

function openAt(now: string) {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date(now) });
  stubApi({
    '/api/Webcam/GetImageHistory': () => Response.json(TODAY),
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
});
