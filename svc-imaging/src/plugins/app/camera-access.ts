import type { AccessChanged, PayloadOf } from '@lakecams/contracts/messages';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../database.ts';
import type { CameraAccess } from '../../delivery/quality-resolution.ts';

declare module 'fastify' {
  interface FastifyInstance {
    cameraAccess(webcamId: number): Promise<CameraAccess | undefined>;
    /** Keep a camera's access state as svc-webcam announced it. */
    saveCameraAccess(access: PayloadOf<typeof AccessChanged>): Promise<void>;
  }
}

/** The `camera_access` table: each camera's configurations and bookings as svc-webcam announces them. */
export default fp(
  async (app: FastifyInstance, { db }: { db: Kysely<Database> }) => {
    app.decorate('cameraAccess', (webcamId: number) =>
      db
        .selectFrom('cameraAccess')
        .select(['configurations', 'bookings'])
        .where('webcamId', '=', webcamId)
        .executeTakeFirst(),
    );
    app.decorate('saveCameraAccess', async ({ webcamId, configurations, bookings, permittedUserIds }) => {
      const row = {
        configurations: JSON.stringify(configurations),
        bookings: JSON.stringify(bookings),
        permittedUserIds: JSON.stringify(permittedUserIds),
      };
      await db
        .insertInto('cameraAccess')
        .values({ webcamId, ...row })
        .onConflict((oc) => oc.column('webcamId').doUpdateSet(row))
        .execute();
    });
  },
  { name: 'camera-access' },
);
