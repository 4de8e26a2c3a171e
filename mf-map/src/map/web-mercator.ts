/** Tiles of the map are 256 px squares in Web Mercator, as Leaflet and every tile server have them. */
export const TILE_SIZE = 256;

export interface Point {
  x: number;
  y: number;
}

/** A position's pixel in the whole world's picture at `zoom` (EPSG:3857, what Leaflet's default CRS does). */
export function worldPixel(lat: number, lng: number, zoom: number): Point {
  const scale = TILE_SIZE * 2 ** zoom;
  const sin = Math.sin((lat * Math.PI) / 180);
  return {
    x: ((lng + 180) / 360) * scale,
    y: (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * scale,
  };
}

/** `{z}/{x}/{y}` (and `{s}`, `{r}` as Leaflet fills them without options) of a tile URL template. */
export function tileUrl(template: string, z: number, x: number, y: number): string {
  return template.replace(/\{([a-z])\}/g, (whole, key: string) =>
    key === 'z'
      ? String(z)
      : key === 'x'
        ? String(x)
        : key === 'y'
          ? String(y)
          : key === 's'
            ? 'a'
            : key === 'r'
              ? ''
              : whole,
  );
}
