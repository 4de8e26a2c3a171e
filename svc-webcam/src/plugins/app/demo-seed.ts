import { DEMO_SOURCE_PATH } from '@lakecams/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DEMO_CAMERAS, DEMO_NEWS } from '../../demo-cameras.ts';

export interface DemoSeedOptions {
  /** Seed the demo cameras into an empty database (embedded mode). */
  demoCameras?: boolean;
  /** Base URL of the built-in demo picture source; a camera's pattern is `<base>/<name>.jpg`. */
  demoSourceUrl?: string;
}

/**
 * Fills an empty database with the demo cameras and a news text, and announces them with their first
 * position (svc-imaging owns positions). On later starts it re-points demo cameras at the current
 * demo source, so a changed port does not leave them offline.
 */
export default fp(
  async (app: FastifyInstance, options: DemoSeedOptions) => {
    if (!options.demoCameras) return;
    const base = options.demoSourceUrl ?? `http://127.0.0.1:8080${DEMO_SOURCE_PATH.slice(0, -1)}`;
    const announced = await app.webcamRepository.seedDemo({
      cameras: DEMO_CAMERAS,
      news: DEMO_NEWS,
      base,
      sourcePath: DEMO_SOURCE_PATH,
    });
    if (announced) app.log.info({ cameras: announced }, 'demo cameras seeded or re-pointed');
  },
  { name: 'demo-seed', dependencies: ['webcam-repository'] },
);
