import type { CameraAccessRepository } from '../repositories/camera-access-repository.ts';
import type { CameraDirectory } from '../repositories/camera-directory-repository.ts';
import type { CaptureQueryRepository } from '../repositories/capture-query-repository.ts';
import { offlineReason } from './camera-health.ts';
import type { DeliveryState } from './picture-delivery.ts';

/** A missed message costs at most this much staleness; "silent" cameras are judged by the clock. */
const MAX_AGE_MS = 5_000;

export type { DeliveryState } from './picture-delivery.ts';

/**
 * What serving a camera's current image needs, from memory while nothing changed: spares the image routes
 * their database reads, since every request would otherwise ask the same four things.
 */
export function createDeliveryState({
  cameraDirectory,
  captures,
  cameraAccess,
}: {
  cameraDirectory: CameraDirectory;
  captures: CaptureQueryRepository;
  cameraAccess: CameraAccessRepository;
}) {
  const states = new Map<string, { expires: number; state: Promise<DeliveryState | undefined> }>();
  const load = async (cameraName: string): Promise<DeliveryState | undefined> => {
    const camera = await cameraDirectory.byName(cameraName);
    if (!camera) return undefined;
    const [latest, offline, access] = await Promise.all([
      captures.latest(camera.webcamId),
      offlineReason(captures, camera),
      cameraAccess.of(camera.webcamId),
    ]);
    return { camera, latest, offline, access };
  };
  return {
    /** The camera's delivery state, read again when older than a few seconds; undefined for an unknown camera. */
    of(cameraName: string): Promise<DeliveryState | undefined> {
      const now = Date.now();
      const known = states.get(cameraName);
      if (known && known.expires > now) return known.state;
      const state = load(cameraName);
      states.set(cameraName, { expires: now + MAX_AGE_MS, state });
      state.catch(() => states.delete(cameraName));
      return state;
    },
    /** Something the camera's delivery depends on changed (a capture, its access, a prune): forget it. */
    async forget(webcamId: number): Promise<void> {
      for (const [name, entry] of states) {
        const state = await entry.state.catch(() => undefined);
        if (!state || state.camera.webcamId === webcamId) states.delete(name);
      }
    },
    /** A camera was added, renamed or deleted: names may point elsewhere now. */
    forgetAll(): void {
      states.clear();
    },
  };
}

export type DeliveryStates = ReturnType<typeof createDeliveryState>;
