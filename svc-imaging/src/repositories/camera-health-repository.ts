import { CameraHealthChanged } from '@lakecams/contracts/messages';
import { publishEvent } from '@lakecams/service-kit';
import type { Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { Database } from '../database.ts';
import { type Health, judgeHealth, RECENT_CAPTURES, type RecentCapture } from '../health/health-state.ts';

export interface CameraHealthEntry {
  webcamId: number;
  name: string;
  paused: boolean;
  health: Health;
}

/** Cameras' health from their latest captures, and the `camera_health_notices` that say which change was told. */
export function createCameraHealthRepository(db: Kysely<Database>) {
  return {
    /** Every camera's health at `now`, from each camera's latest captures in one query (through the primary key). */
    async read(now: Date): Promise<CameraHealthEntry[]> {
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
    },

    /**
     * Record that the camera went offline or delivers again, and announce it in the same transaction; false when
     * that change was recorded already (by this or another replica: the notice row changes by a conditional update).
     */
    announceChange: (camera: CameraHealthEntry, now: Date): Promise<boolean> =>
      db.transaction().execute(async (trx) => {
        const { health } = camera;
        const offline = health.state === 'offline';
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
      }),
  };
}

export type CameraHealthRepository = ReturnType<typeof createCameraHealthRepository>;
