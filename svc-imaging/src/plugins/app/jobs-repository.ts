import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { offlineReason } from '../../delivery/camera-health.ts';
import type { CameraRow, Database } from '../../database.ts';
import { createCaptureRepository } from './capture-repository.ts';

/** What the job dashboard reads and changes: captures, pruning runs and a camera's pause. */
export function createJobsRepository(db: Kysely<Database>) {
  return {
    /** Each camera's latest capture (the newest tick), by camera id. */
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
    /** The latest failed captures with their camera's name, newest first. */
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
    /** The latest pruning runs, newest first. */
    recentPrunes: (limit: number) =>
      db
        .selectFrom('jobRuns')
        .select(['tick', 'status', 'startedAt', 'durationMs', 'error', 'detail'])
        .where('job', '=', 'prune')
        .orderBy('startedAt', 'desc')
        .limit(limit)
        .execute(),
    offlineReason: (camera: CameraRow) => offlineReason(createCaptureRepository(db), camera),
    /**
     * Forgets a failed attempt at the camera's capture since `since`, so that the next attempt can claim the
     * minute; resolves its attempt number, 0 when there was none.
     */
    async dropFailedAttempt(webcamId: number, since: Date): Promise<number> {
      const failed = await db
        .deleteFrom('captures')
        .where('webcamId', '=', webcamId)
        .where('status', '=', 'failed')
        .where('startedAt', '>=', since)
        .returning('attempt')
        .executeTakeFirst();
      return failed?.attempt ?? 0;
    },
    /** False when there is no such camera. */
    async setPaused(webcamId: number, paused: boolean): Promise<boolean> {
      const updated = await db
        .updateTable('cameras')
        .set({ paused })
        .where('webcamId', '=', webcamId)
        .executeTakeFirst();
      return Boolean(updated.numUpdatedRows);
    },
  };
}

export type JobsRepository = ReturnType<typeof createJobsRepository>;

declare module 'fastify' {
  interface FastifyInstance {
    jobsRepository: JobsRepository;
  }
}

export default fp(
  async (app: FastifyInstance, { db }: { db: Kysely<Database> }) => {
    app.decorate('jobsRepository', createJobsRepository(db));
  },
  { name: 'jobs-repository', dependencies: ['database'] },
);
