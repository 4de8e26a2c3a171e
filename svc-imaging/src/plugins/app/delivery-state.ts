import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { offlineReason } from '../../delivery/camera-health.ts';
import type { DeliveryState } from '../../delivery/picture-delivery.ts';

/** A missed message costs at most this much staleness; "silent" cameras are judged by the clock. */
const MAX_AGE_MS = 5_000;

export type { DeliveryState } from '../../delivery/picture-delivery.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** What serving a camera's current image needs, from memory while nothing changed. */
    deliveryState(cameraName: string): Promise<DeliveryState | undefined>;
    /** Something the camera's delivery depends on changed (a capture, its access, a prune): forget it. */
    forgetDelivery(webcamId: number): Promise<void>;
  }
}

/** Spares the image route its database reads: every request would otherwise ask the same four things. */
export default fp(
  async (app: FastifyInstance) => {
    const states = new Map<string, { expires: number; state: Promise<DeliveryState | undefined> }>();
    const load = async (cameraName: string): Promise<DeliveryState | undefined> => {
      const camera = await app.cameraDirectory.byName(cameraName);
      if (!camera) return undefined;
      const [latest, offline, access] = await Promise.all([
        app.captures.latest(camera.webcamId),
        offlineReason(app.captures, camera),
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
    app.decorate('forgetDelivery', async (webcamId: number) => {
      for (const [name, entry] of states) {
        const state = await entry.state.catch(() => undefined);
        if (!state || state.camera.webcamId === webcamId) states.delete(name);
      }
    });
    app.onCameraChange(() => states.clear());
  },
  { name: 'delivery-state', dependencies: ['capture-repository', 'camera-directory', 'camera-access'] },
);
