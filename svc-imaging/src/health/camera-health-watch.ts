import { Cron } from 'croner';
import type { FastifyInstance } from 'fastify';
import type { CameraHealthEntry, CameraHealthRepository } from '../repositories/camera-health-repository.ts';

export type { CameraHealthEntry } from '../repositories/camera-health-repository.ts';

/**
 * Tell the operator of each camera that went offline or delivers again since the last check: however many
 * replicas check at once, one of them announces each transition. Paused cameras are left as they are.
 */
export async function checkCameraHealth(repository: CameraHealthRepository, now: Date): Promise<number> {
  let announced = 0;
  for (const camera of await repository.read(now)) {
    if (camera.paused) continue;
    if (await repository.announceChange(camera, now)) announced++;
  }
  return announced;
}

export interface CameraHealthWatch {
  /** Every camera's health now (or at `now`). */
  read(now?: Date): Promise<CameraHealthEntry[]>;
  /** One check of the transitions to mail; resolves how many this replica announced. */
  check(now?: Date): Promise<number>;
}

export interface CameraHealthWatchOptions {
  /** Check every minute (off in tests that check by hand). */
  schedule?: boolean;
  /** Tell the operator of cameras going offline and back (CAMERA_HEALTH_MAILS, default on). */
  mails?: boolean;
  clock?: () => Date;
}

/** Camera health for the dashboards, and the check every minute that mails the operator on transitions. */
export function createCameraHealthWatch(
  app: FastifyInstance,
  repository: CameraHealthRepository,
  { schedule, mails = true, clock = () => new Date() }: CameraHealthWatchOptions,
): CameraHealthWatch {
  const job =
    schedule && mails
      ? new Cron(
          '* * * * *',
          { protect: true, catch: (err) => app.log.warn({ err }, 'camera health check failed') },
          async () => {
            await checkCameraHealth(repository, clock());
          },
        )
      : null;
  app.addHook('onClose', async () => {
    job?.stop();
  });
  return {
    read: (now = clock()) => repository.read(now),
    check: (now = clock()) => checkCameraHealth(repository, now),
  };
}
