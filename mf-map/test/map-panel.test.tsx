import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CameraMapProps } from '../src/map/camera-map.tsx';
import { countBeyondEdges } from '../src/map/offscreen-cameras.tsx';
import { tilesUnavailable } from '../src/map/tile-health.ts';
import { ITEMS, renderAt, stubApi } from './fixtures.tsx';

// Leaflet needs a real browser (the e2e test aborts real tiles); here the stand-in reports what Leaflet's tileerror would.
vi.mock('../src/map/camera-map.tsx', () => ({
  default: ({ onTilesUnavailable }: CameraMapProps) => (
    <button type="button" onClick={onTilesUnavailable}>
      Kacheln scheitern
    </button>
  ),
}));

describe('tile health', () => {
  it('judges the tiles unavailable only when at least four and most of them failed', () => {
    expect(tilesUnavailable({ loaded: 0, failed: 3 })).toBe(false);
    expect(tilesUnavailable({ loaded: 0, failed: 4 })).toBe(true);
    expect(tilesUnavailable({ loaded: 2, failed: 7 })).toBe(false);
    expect(tilesUnavailable({ loaded: 2, failed: 8 })).toBe(true);
    expect(tilesUnavailable({ loaded: 12, failed: 0 })).toBe(false);
  });
});

describe('cameras beyond the edges of a phone map', () => {
  it('counts each camera outside the view by the edge it lies beyond', () => {
    const points = [
      { x: -40, y: 100 },
      { x: -5, y: -300 },
      { x: 120, y: 80 },
      { x: 500, y: 100 },
      { x: 200, y: -10 },
      { x: 200, y: 700 },
    ];
    expect(countBeyondEdges(points, 356, 520)).toEqual({ left: 2, right: 1, up: 1, down: 1 });
  });
});

describe('the map when its tiles cannot be loaded', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  // First: the page's tile settings are fetched once and kept after a success.
  it('points to the list also when the map settings cannot be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubApi({
      '/api/Webcam/GetImages': () => Response.json(ITEMS),
      '/config.json': () => new Response('', { status: 503 }),
    });
    await renderAt('/');
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain('Karte nicht verfügbar.');
    expect(within(notice).getByRole('link', { name: 'Zur Liste der Webcams' })).toBeDefined();
  });

  it('says "Karte nicht verfügbar" and leads to the list', async () => {
    stubApi({
      '/api/Webcam/GetImages': () => Response.json(ITEMS),
      '/config.json': () => Response.json({ mapTiles: { url: 'http://tiles.test/{z}/{x}/{y}.png', attribution: '' } }),
    });
    await renderAt('/');
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'Kacheln scheitern' }));
    const notice = screen.getByRole('alert');
    expect(notice.textContent).toContain('Karte nicht verfügbar.');
    fireEvent.click(within(notice).getByRole('link', { name: 'Zur Liste der Webcams' }));
    expect(screen.getByRole('tab', { name: 'Liste' }).getAttribute('aria-selected')).toBe('true');
  });
});
