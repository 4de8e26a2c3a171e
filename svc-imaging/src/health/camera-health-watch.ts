import { CameraHealthChanged } from '@lakecams/contracts/messages';
import { publishEvent } from '@lakecams/service-kit';
import { Cron } from 'croner';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { Database } from '../database.ts';
import { type Health, judgeHealth, RECENT_CAPTURES, type RecentCapture } from './health-state.ts';

export interface CameraHealthEntry {
  webcamId: number;
  name: string;
  paused: boolean;
  health: Health;
}

/** Every camera's health at `now`, from each camera's latest captures in one query (through the primary key). */
export async function readCamerasHealth(db: Kysely<Database>, now: Date): Promise<CameraHealthEntry[]> {
  const rows = await db
    .selectFrom('cameras')
    .leftJoin('cameraSources', 'cameraSources.webcamId', 'cameras.webcamId')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('captures')
          .select([
            'captures.name as captureName',
            'captures.status',
            'captures.startedAt',
            'captures.contentHash',
            'captures.error',
          ])
          .whereRef('captures.webcamId', '=', 'cameras.webcamId')
          .orderBy('captures.name', 'desc')
          .limit(RECENT_CAPTURES)
          .as('recent'),
      (join) => join.onTrue(),
    )
    .select([
      'cameras.webcamId',
      'cameras.name',
      'cameras.intervalMin',
      'cameras.paused',
      'cameraSources.kind',
      'recent.status',
      'recent.startedAt',
      'recent.contentHash',
      'recent.error',
    ])
    .orderBy('cameras.webcamId')
    .orderBy('recent.captureName', 'desc')
    .execute();
  const cameras = new Map<
    number,
    { name: string; intervalMin: number; paused: boolean; pushed: boolean; recent: RecentCapture[] }
  >();
  for (const row of rows) {
    let camera = cameras.get(row.webcamId);
    if (!camera) {
      const pushed = row.kind === 'ftp' || row.kind === 'push';
      camera = { name: row.name, intervalMin: row.intervalMin, paused: row.paused, pushed, recent: [] };
      cameras.set(row.webcamId, camera);
    }
    if (row.status && row.startedAt)
      camera.recent.push({
        status: row.status,
        startedAt: row.startedAt,
        contentHash: row.contentHash,
        error: row.error,
      });
  }
  return [...cameras].map(([webcamId, camera]) => ({
    webcamId,
    name: camera.name,
    paused: camera.paused,
    health: judgeHealth(camera, now),
  }));
}

/**
 * Tell the operator of each camera that went offline or delivers again since the last check. The notice row
 * changes by a conditional update and the event is written in its transaction: however many replicas check
 * at once, one of them announces each transition. Paused cameras are left as they are.
 */
export async function checkCameraHealth(db: Kysely<Database>, now: Date): Promise<number> {
  let announced = 0;
  for (const camera of await readCamerasHealth(db, now)) {
    if (camera.paused) continue;
    const { health } = camera;
    const offline = health.state === 'offline';
    const changed = await db.transaction().execute(async (trx) => {
      const row = offline
        ? await trx
            .insertInto('cameraHealthNotices')
            .values({ webcamId: camera.webcamId, state: 'offline', changedAt: now })
            .onConflict((oc) =>
              oc
                .column('webcamId')
                .doUpdateSet({ state: 'offline', changedAt: now })
                .where('cameraHealthNotices.state', '=', 'ok'),
            )
            .returning('webcamId')
            .executeTakeFirst()
        : await trx
            .updateTable('cameraHealthNotices')
            .set({ state: 'ok', changedAt: now })
            .where('webcamId', '=', camera.webcamId)
            .where('state', '=', 'offline')
            .returning('webcamId')
            .executeTakeFirst();
      if (!row) return false;
      await publishEvent(trx, CameraHealthChanged, {
        webcamId: camera.webcamId,
        camera: camera.name,
        state: offline ? 'offline' : 'back',
        since: (health.since ?? now).toISOString(),
        reason: offline && (health.reason === 'frozen' || health.reason === 'silent') ? health.reason : null,
        eventId: randomUUID(),
      });
      return true;
    });
    if (changed) announced++;
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
  db: Kysely<Database>,
  { schedule, mails = true, clock = () => new Date() }: CameraHealthWatchOptions,
): CameraHealthWatch {
  const job =
    schedule && mails
      ? new Cron(
          '* * * * *',
          { protect: true, catch: (err) => app.log.warn({ err }, 'camera health check failed') },
          async () => {
            await checkCameraHealth(db, clock());
          },
        )
      : null;
  app.addHook('onClose', async () => {
    job?.stop();
  });
  return {
    read: (now = clock()) => readCamerasHealth(db, now),
    check: (now = clock()) => checkCameraHealth(db, now),
  };
}
