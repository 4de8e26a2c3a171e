import type { Kysely } from 'kysely';
import type { Database, TimelapseLevel } from '../database.ts';

export interface TimelapseKey {
  webcamId: number;
  /** `yyyyMMdd` */
  day: string;
  level: TimelapseLevel;
}

export interface TimelapseClaim {
  replicaId: string;
  now: Date;
  /** Frames the clip will hold, for the progress. */
  frames: number;
  /** A clip finished before this is made again, unless it was made after its day ended. */
  remakeBefore: Date;
  /** A running job whose heartbeat is older than this belongs to a stopped replica: take it over. */
  staleBefore: Date;
  /** The day is over: a clip made while it was still going on is made once more. */
  dayFinished: boolean;
  /** Make it again whatever its state (its file is gone), unless it is running. */
  force?: boolean;
}

/** The `timelapses` table: one clip per camera, day and level, its claim, progress and outcome. */
export function createTimelapseRepository(db: Kysely<Database>) {
  const byKey = (key: TimelapseKey) =>
    db
      .updateTable('timelapses')
      .where('webcamId', '=', key.webcamId)
      .where('day', '=', key.day)
      .where('level', '=', key.level);
  return {
    /** Inserting the row or taking over a finished, stale or abandoned one is the claim: one replica wins. */
    async claim(key: TimelapseKey, claim: TimelapseClaim): Promise<boolean> {
      const row = {
        status: 'running',
        claimedBy: claim.replicaId,
        startedAt: claim.now,
        heartbeatAt: claim.now,
        frames: claim.frames,
        framesDone: 0,
        error: null,
      } as const;
      const claimed = await db
        .insertInto('timelapses')
        .values({ ...key, ...row })
        .onConflict((oc) =>
          oc
            .columns(['webcamId', 'day', 'level'])
            .doUpdateSet(row)
            .where((eb) =>
              eb.or([
                eb.and([eb('timelapses.status', '=', 'running'), eb('timelapses.heartbeatAt', '<', claim.staleBefore)]),
                eb.and([
                  eb('timelapses.status', '!=', 'running'),
                  claim.force
                    ? eb.lit(true)
                    : eb.and([
                        eb('timelapses.complete', '=', false),
                        eb.or([
                          eb('timelapses.finishedAt', '<=', claim.remakeBefore),
                          eb.and([eb('timelapses.status', '=', 'done'), eb.lit(claim.dayFinished)]),
                        ]),
                      ]),
                ]),
              ]),
            ),
        )
        .executeTakeFirst();
      return Boolean(claimed.numInsertedOrUpdatedRows);
    },
    /** Progress doubles as the heartbeat; false when another replica took the job over. */
    async progress(key: TimelapseKey, replicaId: string, framesDone: number, now: Date): Promise<boolean> {
      const updated = await byKey(key)
        .set({ framesDone, heartbeatAt: now })
        .where('claimedBy', '=', replicaId)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return Boolean(updated.numUpdatedRows);
    },
    async finish(
      key: TimelapseKey,
      replicaId: string,
      outcome: { bytes: number; width: number; durationMs: number; complete: boolean; finishedAt: Date },
    ): Promise<boolean> {
      const updated = await byKey(key)
        .set({ ...outcome, status: 'done', framesDone: (eb) => eb.ref('frames') })
        .where('claimedBy', '=', replicaId)
        .executeTakeFirst();
      return Boolean(updated.numUpdatedRows);
    },
    async fail(key: TimelapseKey, replicaId: string, error: string, finishedAt: Date, durationMs: number) {
      await byKey(key)
        .set({ status: 'failed', error: error.slice(0, 500), finishedAt, durationMs })
        .where('claimedBy', '=', replicaId)
        .execute();
    },
    find: (key: TimelapseKey) =>
      db
        .selectFrom('timelapses')
        .selectAll()
        .where('webcamId', '=', key.webcamId)
        .where('day', '=', key.day)
        .where('level', '=', key.level)
        .executeTakeFirst(),
    /** Clips of a day that someone asked for, finished before `before`: the ones to remake. */
    async finishedBefore(day: string, before: Date): Promise<TimelapseKey[]> {
      return db
        .selectFrom('timelapses')
        .select(['webcamId', 'day', 'level'])
        .where('day', '=', day)
        .where('status', '!=', 'running')
        .where('finishedAt', '<=', before)
        .execute();
    },
    /** Clips of days before `day` (`yyyyMMdd`): their pictures are pruned, so are they. */
    before: (day: string) =>
      db
        .selectFrom('timelapses')
        .innerJoin('cameras', 'cameras.webcamId', 'timelapses.webcamId')
        .select(['timelapses.webcamId', 'cameras.name as camera', 'timelapses.day', 'timelapses.level'])
        .where('timelapses.day', '<', day)
        .where('timelapses.status', '!=', 'running')
        .execute(),
    async forget(key: TimelapseKey): Promise<void> {
      await db
        .deleteFrom('timelapses')
        .where('webcamId', '=', key.webcamId)
        .where('day', '=', key.day)
        .where('level', '=', key.level)
        .execute();
    },
    /** The latest jobs with their camera's name, for the job dashboard. */
    recent: (limit: number) =>
      db
        .selectFrom('timelapses')
        .innerJoin('cameras', 'cameras.webcamId', 'timelapses.webcamId')
        .select([
          'cameras.name as camera',
          'timelapses.day',
          'timelapses.level',
          'timelapses.status',
          'timelapses.frames',
          'timelapses.framesDone',
          'timelapses.startedAt',
          'timelapses.finishedAt',
          'timelapses.durationMs',
          'timelapses.bytes',
          'timelapses.claimedBy',
          'timelapses.error',
        ])
        .orderBy('timelapses.startedAt', 'desc')
        .limit(limit)
        .execute(),
  };
}

export type TimelapseRepository = ReturnType<typeof createTimelapseRepository>;
