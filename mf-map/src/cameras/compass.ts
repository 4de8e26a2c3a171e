const POINTS = [
  'Nord',
  'Nordnordost',
  'Nordost',
  'Ostnordost',
  'Ost',
  'Ostsüdost',
  'Südost',
  'Südsüdost',
  'Süd',
  'Südsüdwest',
  'Südwest',
  'Westsüdwest',
  'West',
  'Westnordwest',
  'Nordwest',
  'Nordnordwest',
] as const;

/** Degrees (0 = north, clockwise) normalised to 0 … 359. */
export function normalizedDirection(direction: number): number {
  return ((Math.round(direction) % 360) + 360) % 360;
}

/** 250 → `Westsüdwest`: one of 16 compass points, in German. */
export function compassPoint(direction: number): string {
  return POINTS[Math.round(normalizedDirection(direction) / 22.5) % 16] ?? 'Nord';
}

/** `Westsüdwest (250°)` */
export function compassLabel(direction: number): string {
  return `${compassPoint(direction)} (${normalizedDirection(direction)}°)`;
}

/** Text for screen readers and tooltips: `Blickrichtung Westsüdwest (250°)`. */
export function directionLabel(direction: number): string {
  return `Blickrichtung ${compassLabel(direction)}`;
}
