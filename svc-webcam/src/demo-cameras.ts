import { DEMO_SOURCE_BASE, DEMO_SOURCE_PATH, type WebcamType } from '@lakecams/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { WebcamRepository } from './repositories/webcam-repository.ts';

/** Demo cameras around the upper Lake Zurich (Obersee side), with their initial position. */
export interface DemoCamera {
  name: string;
  lat: number;
  lng: number;
  direction: number;
  distance: number;
  angle: number;
  intervalMin: number;
  webcamType: WebcamType;
}

export const DEMO_CAMERAS: readonly DemoCamera[] = [
  {
    name: 'Rapperswil-Seedamm',
    lat: 47.2262,
    lng: 8.816,
    direction: 250,
    distance: 6,
    angle: 70,
    intervalMin: 5,
    webcamType: 'STATIC',
  },
  {
    name: 'Waedenswil-Hafen',
    lat: 47.231,
    lng: 8.675,
    direction: 60,
    distance: 8,
    angle: 90,
    intervalMin: 5,
    webcamType: 'STATIC',
  },
  {
    name: 'Richterswil',
    lat: 47.2085,
    lng: 8.704,
    direction: 30,
    distance: 5,
    angle: 60,
    intervalMin: 10,
    webcamType: 'STATIC',
  },
  {
    name: 'Staefa-Kehlhof',
    lat: 47.238,
    lng: 8.725,
    direction: 200,
    distance: 5,
    angle: 75,
    intervalMin: 5,
    webcamType: 'STATIC',
  },
  {
    name: 'Pfaeffikon-SZ',
    lat: 47.2035,
    lng: 8.779,
    direction: 330,
    distance: 6,
    angle: 80,
    intervalMin: 10,
    webcamType: 'STATIC',
  },
  {
    name: 'Halbinsel-Au',
    lat: 47.247,
    lng: 8.642,
    direction: 120,
    distance: 7,
    angle: 100,
    intervalMin: 5,
    webcamType: 'STATIC',
  },
  {
    name: 'Insel-Ufenau',
    lat: 47.2175,
    lng: 8.7805,
    direction: 270,
    distance: 4,
    angle: 120,
    intervalMin: 15,
    webcamType: 'ROTATION',
  },
  {
    name: 'Maennedorf',
    lat: 47.2545,
    lng: 8.692,
    direction: 180,
    distance: 6,
    angle: 65,
    intervalMin: 5,
    webcamType: 'STATIC',
  },
];

export const DEMO_NEWS =
  'Willkommen bei den Webcams am Zürichsee! Die Demo-Kameras zeigen Standorte rund um den oberen Zürichsee.';

/**
 * Fills an empty database with the demo cameras and a news text, and announces them with their first
 * position (svc-imaging owns positions). Their URLs are `<DEMO_SOURCE_BASE>/<name>.jpg`, which svc-imaging
 * renders itself; on later starts demo cameras an earlier portal pointed at its own address are re-pointed.
 */
export async function seedDemoCameras(webcams: WebcamRepository, log: FastifyBaseLogger): Promise<void> {
  const announced = await webcams.seedDemo({
    cameras: DEMO_CAMERAS,
    news: DEMO_NEWS,
    base: DEMO_SOURCE_BASE,
    sourcePath: DEMO_SOURCE_PATH,
  });
  if (announced) log.info({ cameras: announced }, 'demo cameras seeded or re-pointed');
}
