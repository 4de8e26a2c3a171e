/** The cone reaches 0.012° per km of the camera's visible distance. */
export const CONE_DEGREES_PER_KM = 0.012;
/** One arc point per this many degrees of view angle: smooth enough, few points. */
const ARC_STEP_DEGREES = 5;

export type LatLng = [lat: number, lng: number];

export interface ConeSource {
  lat: number;
  lng: number;
  /** Direction of view, degrees clockwise from north. */
  direction: number;
  /** Angle of view in degrees (1 … 360). */
  angle: number;
  /** Visible distance in km. */
  distance: number;
}

/**
 * The view cone as a polygon: the apex at the camera, then an arc from direction − angle/2 to
 * direction + angle/2. Longitude offsets are divided by cos(latitude) so the cone is not squashed
 * (docs/product.md §4.2).
 */
export function viewCone({ lat, lng, direction, angle, distance }: ConeSource): LatLng[] {
  const radius = CONE_DEGREES_PER_KM * distance;
  const lngScale = 1 / Math.cos((lat * Math.PI) / 180);
  const span = Math.min(Math.max(angle, 0), 360);
  const start = direction - span / 2;
  const steps = Math.max(1, Math.ceil(span / ARC_STEP_DEGREES));
  const arc: LatLng[] = [];
  for (let i = 0; i <= steps; i++) {
    const bearing = ((start + (span * i) / steps) * Math.PI) / 180;
    arc.push([lat + radius * Math.cos(bearing), lng + radius * Math.sin(bearing) * lngScale]);
  }
  return [[lat, lng], ...arc];
}
