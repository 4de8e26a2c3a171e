import { SUBJECTS } from '@lakecams/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { AccessBooking, AccessConfiguration, Database } from '../../database.ts';
import type { CameraAccess } from '../../quality-resolution.ts';
import { CAMERA_REFRESHED } from './delivery-state.ts';

interface AccessChanged {
  webcamId: number;
  configurations: AccessConfiguration[];
  bookings: AccessBooking[];
  permittedUserIds: string[];
}

declare module 'fastify' {
  interface FastifyInstance {
    cameraAccess(webcamId: number): Promise<CameraAccess | undefined>;
  }
}

/** Keeps each camera's configurations and bookings as svc-webcam announces them (durable). */
export default fp(
  async (app: FastifyInstance) => {
    const db = app.db as Kysely<Database>;
    app.decorate('cameraAccess', (webcamId: number) =>
      db
        .selectFrom('cameraAccess')
        .select(['configurations', 'bookings'])
        .where('webcamId', '=', webcamId)
        .executeTakeFirst(),
    );
    const subscription = await app.bus.consume<AccessChanged>(
      async (message) => {
        const { webcamId, configurations, bookings, permittedUserIds } = message.data;
        const row = {
          configurations: JSON.stringify(configurations ?? []),
          bookings: JSON.stringify(bookings ?? []),
          permittedUserIds: JSON.stringify(permittedUserIds ?? []),
        };
        await db
          .insertInto('cameraAccess')
          .values({ webcamId, ...row })
          .onConflict((oc) => oc.column('webcamId').doUpdateSet(row))
          .execute();
        message.ack();
        await app.bus.publish(CAMERA_REFRESHED, { webcamId });
      },
      { durable: 'svc-imaging-camera-access', filter: SUBJECTS.accessChanged },
    );
    // svc-referer's GetCameraInfo: the size of a camera's full image.
    const info = await app.bus.respond<{ webcamId: number }, { width: number; height: number } | null>(
      'imaging.camera.info',
      async ({ data }) => {
        const latest = await db
          .selectFrom('captures')
          .select(['width', 'height'])
          .where('webcamId', '=', Number(data.webcamId))
          .where('status', '=', 'done')
          .orderBy('name', 'desc')
          .limit(1)
          .executeTakeFirst();
        return latest?.width && latest.height ? { width: latest.width, height: latest.height } : null;
      },
      { queue: 'svc-imaging' },
    );
    app.addHook('onClose', async () => {
      await subscription.unsubscribe();
      await info.unsubscribe();
    });
  },
  { name: 'camera-access', dependencies: ['database'] },
);
