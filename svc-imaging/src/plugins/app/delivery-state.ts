import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { type OfflineReason, offlineReason } from '../../camera-health.ts';
import type { CameraRow, Database } from '../../database.ts';
import type { CameraAccess } from '../../quality-resolution.ts';

/** Core message: something a camera's delivery depends on changed (capture, access); every replica forgets it. */
export const CAMERA_REFRESHED = 'imaging.camera.refreshed';
/** A missed message costs at most this much staleness; "silent" cameras are judged by the clock. */
const MAX_AGE_MS = 5_000;

export interface DeliveryState {
  camera: CameraRow;
  latest: { name: string; width: number | null; contentHash: string | null } | undefined;
  offline: OfflineReason;
  access: CameraAccess | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What serving a camera's current image needs, from memory while nothing changed. */
    deliveryState(cameraName: string): Promise<DeliveryState | undefined>;
  }
}

/** Spares the image route its database reads: every request would otherwise ask the same four things. */
export default fp(
  async (app: FastifyInstance) => {
    const db = app.db as Kysely<Database>;
    const states = new Map<string, { expires: number; state: Promise<DeliveryState | undefined> }>();
    const load = async (cameraName: string): Promise<DeliveryState | undefined> => {
      const camera = await app.cameraDirectory.byName(cameraName);
      if (!camera) return undefined;
      const [latest, offline, access] = await Promise.all([
        db
          .selectFrom('captures')
          .select(['name', 'width', 'contentHash'])
          .where('webcamId', '=', camera.webcamId)
          .where('status', '=', 'done')
          .orderBy('name', 'desc')
          .limit(1)
          .executeTakeFirst(),
        offlineReason(db, camera),
        app.cameraAccess(camera.webcamId),
      ]);
      return { camera, latest, offline, access };
    };
    app.decorate('deliveryState', (cameraName: string) => {
      const now = Date.now();
      const known = states.get(cameraName);
      if (known && known.expires > now) return known.state;
      const state = load(cameraName);
      states.set(cameraName, { expires: now + MAX_AGE_MS, state });
      state.catch(() => states.delete(cameraName));
      return state;
    });
    const forget = async (webcamId: number) => {
      for (const [name, entry] of states) {
        const state = await entry.state.catch(() => undefined);
        if (!state || state.camera.webcamId === webcamId) states.delete(name);
      }
    };
    app.onCameraChange(() => states.clear());
    const refreshed = await app.bus.subscribe<{ webcamId: number }>(CAMERA_REFRESHED, ({ data }) =>
      forget(Number(data.webcamId)),
    );
    app.addHook('onClose', async () => refreshed.unsubscribe());
  },
  { name: 'delivery-state', dependencies: ['database', 'camera-directory', 'camera-access'] },
);
