import { describe, expect, it } from 'vitest';
import { hasPosition, listedCameras, positionedCameras } from '../src/cameras/camera-list.ts';
import { CONE_DEGREES_PER_KM, viewCone } from '../src/map/view-cone.ts';
import { ITEMS } from './fixtures.tsx';

const RAD = Math.PI / 180;

/** Undo the latitude correction: the bearing and radius of a cone point as seen from the apex. */
function polar(apex: [number, number], point: [number, number]) {
  const north = point[0] - apex[0];
  const east = (point[1] - apex[1]) * Math.cos(apex[0] * RAD);
  const bearing = (Math.atan2(east, north) / RAD + 360) % 360;
  return { bearing, radius: Math.hypot(north, east) };
}

describe('viewCone', () => {
  const camera = { lat: 47.2262, lng: 8.816, direction: 250, angle: 70, distance: 6 };

  it('starts at the camera', () => {
    expect(viewCone(camera)[0]).toEqual([camera.lat, camera.lng]);
  });

  it('puts its edges at direction ± angle/2 and 0.012° per km away', () => {
    const [apex, first, ...rest] = viewCone(camera) as [[number, number], [number, number], ...[number, number][]];
    const last = rest.at(-1) as [number, number];
    expect(CONE_DEGREES_PER_KM).toBe(0.012);
    expect(polar(apex, first).bearing).toBeCloseTo(215, 6);
    expect(polar(apex, last).bearing).toBeCloseTo(285, 6);
    expect(polar(apex, first).radius).toBeCloseTo(0.072, 9);
    expect(polar(apex, last).radius).toBeCloseTo(0.072, 9);
  });

  it('draws an arc between the edges, every point at the same distance', () => {
    const [apex, ...arc] = viewCone(camera) as [[number, number], ...[number, number][]];
    expect(arc.length).toBeGreaterThanOrEqual(15);
    const bearings = arc.map((point) => polar(apex, point).bearing);
    for (const point of arc) expect(polar(apex, point).radius).toBeCloseTo(0.072, 9);
    for (let i = 1; i < bearings.length; i++) expect(bearings[i] as number).toBeGreaterThan(bearings[i - 1] as number);
  });

  it('widens longitude by 1/cos(latitude) so the cone is not squashed', () => {
    const east = viewCone({ lat: 60, lng: 10, direction: 90, angle: 10, distance: 1 });
    const middle = east[Math.floor(east.length / 2)] as [number, number];
    expect(middle[1] - 10).toBeCloseTo(0.012 / Math.cos(60 * RAD), 6);
    expect(middle[0]).toBeCloseTo(60, 6);
    const north = viewCone({ lat: 60, lng: 10, direction: 0, angle: 10, distance: 1 });
    const up = north[Math.floor(north.length / 2)] as [number, number];
    expect(up[0] - 60).toBeCloseTo(0.012, 6);
  });

  it('grows with the distance', () => {
    const near = viewCone({ ...camera, distance: 1 });
    const far = viewCone({ ...camera, distance: 20 });
    const apex = [camera.lat, camera.lng] as [number, number];
    expect(polar(apex, far[1] as [number, number]).radius).toBeCloseTo(
      20 * polar(apex, near[1] as [number, number]).radius,
      9,
    );
  });
});

describe('cameras on the map', () => {
  it('lists only cameras with an image, with their latest image', () => {
    const listed = listedCameras(ITEMS);
    expect(listed.map((camera) => [camera.webcam.name, camera.latest.name])).toEqual([
      ['Rapperswil-Seedamm', '202611221200'],
      ['Staefa_Hafen', '202611221155'],
      ['Ohne-Standort', '202611221150'],
    ]);
  });

  it('leaves cameras at lat 0 / lng 0 off the map', () => {
    expect(positionedCameras(listedCameras(ITEMS)).map((camera) => camera.webcam.name)).toEqual([
      'Rapperswil-Seedamm',
      'Staefa_Hafen',
    ]);
    expect(hasPosition({ lat: 0, lng: 8.7 })).toBe(true);
    expect(hasPosition({ lat: 47.2, lng: 0 })).toBe(true);
    expect(hasPosition({ lat: 0, lng: 0 })).toBe(false);
    expect(hasPosition({ lat: Number.NaN, lng: 8 })).toBe(false);
  });
});
