import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Runs of jobs other than captures (e.g. pruning); (job, tick) is the claim across replicas.
  await db.schema
    .createTable('job_runs')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('job', 'text', (c) => c.notNull())
    .addColumn('tick', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('running', 'done', 'failed')`))
    .addColumn('claimed_by', 'text', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('duration_ms', 'integer')
    .addColumn('error', 'text')
    .addColumn('detail', 'jsonb')
    .addUniqueConstraint('job_runs_job_tick', ['job', 'tick'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job_runs').execute();
}
