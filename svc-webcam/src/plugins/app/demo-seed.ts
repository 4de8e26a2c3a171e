import { DEMO_SOURCE_BASE, DEMO_SOURCE_PATH } from '@lakecams/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DEMO_CAMERAS, DEMO_NEWS } from '../../demo-cameras.ts';

export interface DemoSeedOptions {
  /** Seed the demo cameras into an empty database (embedded mode). */
  demoCameras?: boolean;
}

/**
 * Fills an empty database with the demo cameras and a news text, and announces them with their first
 * position (svc-imaging owns positions). Their URLs are `<DEMO_SOURCE_BASE>/<name>.jpg`, which svc-imaging
 * renders itself; on later starts demo cameras an earlier portal pointed at its own address are re-pointed.
 */
export default fp(
  async (app: FastifyInstance, options: DemoSeedOptions) => {
    if (!options.demoCameras) return;
    const announced = await app.webcamRepository.seedDemo({
      cameras: DEMO_CAMERAS,
      news: DEMO_NEWS,
      base: DEMO_SOURCE_BASE,
      sourcePath: DEMO_SOURCE_PATH,
    });
    if (announced) app.log.info({ cameras: announced }, 'demo cameras seeded or re-pointed');
  },
  { name: 'demo-seed', dependencies: ['webcam-repository'] },
);
