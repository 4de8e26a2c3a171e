import { SUBJECTS, type Webcam } from '@lakecams/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { CameraRow, Database } from '../../database.ts';

/** Told to every replica after one of them applied a camera change. */
export const CAMERA_APPLIED = 'imaging.camera.applied';

/** `webcam.camera.upserted` carries the webcam, and for new demo cameras their first position. */
export type CameraEvent = Webcam & { position?: { lat: number; lng: number; direction: number } };

export function createCameraDirectory(db: Kysely<Database>) {
  return {
    async upsert(event: CameraEvent): Promise<CameraRow> {
      const row = { webcamId: event.id, name: event.name, pattern: event.pattern, intervalMin: event.intervalMin };
      const position = event.position ?? {};
      return db
        .insertInto('cameras')
        .values({ ...row, lat: null, lng: null, direction: null, ...position })
        .onConflict((oc) =>
          oc
            .column('webcamId')
            .doUpdateSet({ name: row.name, pattern: row.pattern, intervalMin: row.intervalMin, ...position }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    async remove(webcamId: number): Promise<CameraRow | undefined> {
      return db.deleteFrom('cameras').where('webcamId', '=', webcamId).returningAll().executeTakeFirst();
    },
    byId(webcamId: number) {
      return db.selectFrom('cameras').selectAll().where('webcamId', '=', webcamId).executeTakeFirst();
    },
    byName(name: string) {
      return db.selectFrom('cameras').selectAll().where('name', '=', name).executeTakeFirst();
    },
    list() {
      return db.selectFrom('cameras').selectAll().orderBy('name').execute();
    },
    async setPosition(webcamId: number, position: { lat: number; lng: number; direction: number }) {
      return db.updateTable('cameras').set(position).where('webcamId', '=', webcamId).returningAll().executeTakeFirst();
    },
  };
}

export type CameraDirectory = ReturnType<typeof createCameraDirectory>;

declare module 'fastify' {
  interface FastifyInstance {
    cameraDirectory: CameraDirectory;
    /** Told about every camera change applied from the bus (the scheduler follows it). */
    onCameraChange(listener: (change: { camera: CameraRow; deleted: boolean }) => Promise<void> | void): void;
  }
}

/** Follows camera changes from svc-webcam over the bus (durable: no change is lost across restarts). */
export default fp(
  async (app: FastifyInstance) => {
    const directory = createCameraDirectory(app.db as Kysely<Database>);
    const listeners: ((change: { camera: CameraRow; deleted: boolean }) => Promise<void> | void)[] = [];
    app.decorate('cameraDirectory', directory);
    app.decorate('onCameraChange', (listener) => {
      listeners.push(listener);
    });
    // Listening first: the consumer below may apply the first change before a later subscription exists.
    const applied = await app.bus.subscribe<{ camera: CameraRow; deleted: boolean }>(
      CAMERA_APPLIED,
      async ({ data }) => {
        for (const listener of listeners) {
          await Promise.resolve(listener(data)).catch((err) => app.log.warn({ err }, 'camera listener failed'));
        }
      },
    );
    const subscription = await app.bus.consume<CameraEvent>(
      async (message) => {
        try {
          const deleted = message.subject === SUBJECTS.cameraDeleted;
          const camera = deleted ? await directory.remove(message.data.id) : await directory.upsert(message.data);
          message.ack();
          // One replica applied the change; every replica (this one included) reschedules.
          if (camera) await app.bus.publish(CAMERA_APPLIED, { camera, deleted });
        } catch (err) {
          app.log.warn({ err, subject: message.subject }, 'camera change not applied, retrying');
          message.nak(1000);
        }
      },
      { durable: 'svc-imaging-camera-directory', filter: 'webcam.camera.>' },
    );
    app.addHook('onClose', async () => {
      await subscription.unsubscribe();
      await applied.unsubscribe();
    });
  },
  { name: 'camera-directory', dependencies: ['database'] },
);
