import { describe, expect, it } from 'vitest';
import { tileUrl, worldPixel } from '../src/map/web-mercator.ts';

describe('Web Mercator, as tile servers cut the world', () => {
  it('puts null island in the middle and the lake in its tile at zoom 13', () => {
    expect(worldPixel(0, 0, 0)).toEqual({ x: 128, y: 128 });
    const lake = worldPixel(47.229, 8.729, 13);
    expect([Math.floor(lake.x / 256), Math.floor(lake.y / 256)]).toEqual([4294, 2873]);
  });

  it("fills a tile URL's placeholders as Leaflet does", () => {
    expect(tileUrl('https://{s}.tiles.test/{z}/{x}/{y}{r}.png?k={key}', 13, 4294, 2873)).toBe(
      'https://a.tiles.test/13/4294/2873.png?k={key}',
    );
  });
});
