import type { Kysely } from 'kysely';
import type { Database } from '../database.ts';

/** Reads of the `captures` table: a camera's stored pictures, its latest, a day's, and the job dashboard's runs. */
export function createCaptureQueryRepository(db: Kysely<Database>) {
  const done = (webcamId: number) =>
    db.selectFrom('captures').where('webcamId', '=', webcamId).where('status', '=', 'done');
  return {
    /** The latest stored capture before `name`: what a new picture is compared with. */
    previous: (webcamId: number, name: string) =>
      done(webcamId)
        .select(['contentHash', 'fingerprint'])
        .where('name', '<', name)
        .orderBy('name', 'desc')
        .limit(1)
        .executeTakeFirst(),

    latest: (webcamId: number) =>
      done(webcamId)
        .select(['name', 'width', 'height', 'contentHash'])
        .orderBy('name', 'desc')
        .limit(1)
        .executeTakeFirst(),

    /** The camera's latest two stored captures, newest first (the offline rule). */
    latestTwo: (webcamId: number) =>
      done(webcamId).select(['contentHash', 'startedAt']).orderBy('name', 'desc').limit(2).execute(),

    named: (webcamId: number, name: string) =>
      done(webcamId).select(['name', 'width', 'contentHash']).where('name', '=', name).executeTakeFirst(),

    async hasAny(webcamId: number): Promise<boolean> {
      const any = await db
        .selectFrom('captures')
        .select('name')
        .where('webcamId', '=', webcamId)
        .limit(1)
        .executeTakeFirst();
      return any !== undefined;
    },

    /** The names of a day's stored captures, oldest first. */
    async namesOfDay(webcamId: number, day: string): Promise<string[]> {
      const rows = await done(webcamId)
        .select('name')
        .where('name', '>=', `${day}0000`)
        .where('name', '<=', `${day}2359`)
        .orderBy('name')
        .execute();
      return rows.map((row) => row.name);
    },

    /** A day's stored pictures with their scores (the archive tiers choose among them). */
    picturesOfDay: (webcamId: number, day: string) =>
      done(webcamId)
        .select(['webcamId', 'name', 'score'])
        .where('name', '>=', `${day}0000`)
        .where('name', '<=', `${day}2359`)
        .execute(),

    /** Each camera with its latest two stored captures (newest first), through the partial index. */
    camerasWithLatestTwo: () =>
      db
        .selectFrom('cameras')
        .leftJoinLateral(
          (eb) =>
            eb
              .selectFrom('captures')
              .select(['captures.name as captureName', 'captures.contentHash', 'captures.startedAt'])
              .whereRef('captures.webcamId', '=', 'cameras.webcamId')
              .where('captures.status', '=', 'done')
              .orderBy('captures.name', 'desc')
              .limit(2)
              .as('latest'),
          (join) => join.onTrue(),
        )
        .select([
          'cameras.webcamId',
          'cameras.name',
          'cameras.intervalMin',
          'cameras.paused',
          'latest.contentHash',
          'latest.startedAt',
        ])
        .orderBy('cameras.webcamId')
        .orderBy('latest.captureName', 'desc')
        .execute(),

    /** The latest failed captures with their camera's name, newest first: the job dashboard. */
    recentFailures: (limit: number) =>
      db
        .selectFrom('captures')
        .innerJoin('cameras', 'cameras.webcamId', 'captures.webcamId')
        .select([
          'cameras.name as camera',
          'captures.name as tick',
          'captures.startedAt',
          'captures.error',
          'captures.attempt',
        ])
        .where('captures.status', '=', 'failed')
        .orderBy('captures.startedAt', 'desc')
        .limit(limit)
        .execute(),

    /** Each camera's latest capture (the newest tick), by camera id: the job dashboard. */
    async lastRuns() {
      const runs = await db
        .selectFrom('captures')
        .select(['webcamId', 'name', 'status', 'startedAt', 'durationMs', 'error', 'attempt', 'claimedBy'])
        .distinctOn('webcamId')
        .orderBy('webcamId')
        .orderBy('name', 'desc')
        .execute();
      return new Map(runs.map((run) => [run.webcamId, run]));
    },
  };
}

export type CaptureQueryRepository = ReturnType<typeof createCaptureQueryRepository>;
