import type { Kysely } from 'kysely';
import type { Database } from '../database.ts';
import { withoutUrlLogins } from '../capture/camera-login.ts';

/** The `job_runs` table: daily jobs (pruning) claimed by one replica per day, with their outcome. */
export function createJobRunRepository(db: Kysely<Database>) {
  return {
    /** The run of `job` for `tick`, claimed by `replicaId`; undefined when another replica has it. */
    claim: (job: string, tick: string, replicaId: string) =>
      db
        .insertInto('jobRuns')
        .values({ job, tick, status: 'running', claimedBy: replicaId })
        .onConflict((oc) => oc.columns(['job', 'tick']).doNothing())
        .returning('id')
        .executeTakeFirst(),
    async finish(id: number, outcome: { durationMs: number } & ({ detail: string } | { error: string })) {
      const status = 'error' in outcome ? 'failed' : 'done';
      // Shown on the job dashboard: no camera login in an error's text.
      const recorded = 'error' in outcome ? { ...outcome, error: withoutUrlLogins(outcome.error) } : outcome;
      await db
        .updateTable('jobRuns')
        .set({ status, ...recorded })
        .where('id', '=', id)
        .execute();
    },
    latest: (job: string, limit: number) =>
      db
        .selectFrom('jobRuns')
        .select(['tick', 'status', 'startedAt', 'durationMs', 'error', 'detail'])
        .where('job', '=', job)
        .orderBy('startedAt', 'desc')
        .limit(limit)
        .execute(),
  };
}

export type JobRunRepository = ReturnType<typeof createJobRunRepository>;
