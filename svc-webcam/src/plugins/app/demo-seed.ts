import { SUBJECTS } from '@lakecams/contracts';
import { publishEvent } from '@lakecams/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../database.ts';
import { DEMO_CAMERAS, DEMO_NEWS } from '../../demo-cameras.ts';
import { createWebcamRepository } from './webcam-repository.ts';

export interface DemoSeedOptions {
  /** Seed the demo cameras into an empty database (embedded mode). */
  demoCameras?: boolean;
  /** Base URL of the built-in demo picture source; a camera's pattern is `<base>/<name>.jpg`. */
  demoSourceUrl?: string;
}

const DEMO_SOURCE_PATH = '/api/Image/DemoSource/';

/**
 * Fills an empty database with the demo cameras and a news text, and announces them with their first
 * position (svc-imaging owns positions). On later starts it re-points demo cameras at the current
 * demo source, so a changed port does not leave them offline.
 */
export default fp(
  async (app: FastifyInstance, options: DemoSeedOptions) => {
    if (!options.demoCameras) return;
    const db = app.db as Kysely<Database>;
    const base = options.demoSourceUrl ?? `http://127.0.0.1:8080${DEMO_SOURCE_PATH.slice(0, -1)}`;
    // Each camera is announced in the transaction that seeds or moves it.
    const announced = await db.transaction().execute(async (trx) => {
      const repository = createWebcamRepository(trx);
      if ((await repository.count()) > 0) {
        const target = sql<string>`concat(${`${base}/`}::text, name, '.jpg')`;
        const moved = await trx
          .updateTable('webcams')
          .set({ pattern: target })
          .where('pattern', 'like', `%${DEMO_SOURCE_PATH}%`)
          .where('pattern', '!=', target)
          .returningAll()
          .execute();
        for (const webcam of moved) await publishEvent(trx, SUBJECTS.cameraUpserted, webcam);
        return moved.length;
      }
      for (const { lat, lng, direction, ...camera } of DEMO_CAMERAS) {
        const webcam = await repository.insert({ ...camera, pattern: `${base}/${camera.name}.jpg` });
        await publishEvent(trx, SUBJECTS.cameraUpserted, { ...webcam, position: { lat, lng, direction } });
      }
      await repository.setNews(DEMO_NEWS);
      return DEMO_CAMERAS.length;
    });
    if (announced) app.log.info({ cameras: announced }, 'demo cameras seeded or re-pointed');
  },
  { name: 'demo-seed', dependencies: ['webcam-repository'] },
);
