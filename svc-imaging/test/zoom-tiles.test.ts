import { describe, expect, it } from 'vitest';
import { zoomLevelRefusal } from '../src/delivery/zoom-access.ts';
import { deepestZoomLevel, deepZoomDescriptor, tileAt, tileGrid } from '../src/archive/zoom-tiles.ts';

describe('Deep Zoom geometry', () => {
  const hd = { width: 1920, height: 1080 };

  it('counts levels from 1×1 px up to the picture, and tiles of 254 px per level', () => {
    expect(deepestZoomLevel(hd)).toBe(11);
    expect(deepestZoomLevel({ width: 480, height: 270 })).toBe(9);
    expect(tileGrid(hd, 11)).toEqual({ columns: 8, rows: 5 });
    expect(tileGrid(hd, 10)).toEqual({ columns: 4, rows: 3 });
    expect(tileGrid(hd, 0)).toEqual({ columns: 1, rows: 1 });
    expect([tileGrid(hd, 12), tileGrid(hd, -1), tileGrid(hd, 1.5)]).toEqual([null, null, null]);
  });

  it('names a tile only inside its level', () => {
    expect(tileAt(hd, 11, '7_4.jpg')).toEqual({ column: 7, row: 4 });
    for (const file of ['8_0.jpg', '0_5.jpg', '7_4.jpeg', '7_4.png', '-1_0.jpg', '7_4.jpg/..', '07_4.jpgx'])
      expect([file, tileAt(hd, 11, file)]).toEqual([file, null]);
    expect(tileAt(hd, 12, '0_0.jpg')).toBeNull();
  });

  it('describes the picture as OpenSeadragon reads it', () => {
    const xml = deepZoomDescriptor(hd);
    expect(xml).toContain('Format="jpg" Overlap="1" TileSize="254"');
    expect(xml).toContain('<Size Width="1920" Height="1080"/>');
  });
});

describe('who may have which level of tiles', () => {
  it('allows the entitled level and those below it, refusing anonymous callers with 401 and others with 403', () => {
    expect(zoomLevelRefusal('POOR', 'POOR', false)).toBeNull();
    expect(zoomLevelRefusal('LOW', 'HIGH', true)).toBeNull();
    expect(zoomLevelRefusal('HIGH', 'HIGH', true)).toBeNull();
    expect(zoomLevelRefusal('LOW', 'POOR', false)?.status).toBe(401);
    expect(zoomLevelRefusal('FULL', 'HIGH', true)).toEqual({
      status: 403,
      message: 'Your quality for this camera is HIGH, not FULL',
    });
  });
});
