import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One clip per camera, day and level; the row is also the job's claim and its progress.
  await db.schema
    .createTable('timelapses')
    .addColumn('webcam_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('claimed_by', 'text', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('heartbeat_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .addColumn('duration_ms', 'integer')
    .addColumn('frames', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('frames_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes', 'integer')
    .addColumn('width', 'integer')
    .addColumn('complete', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('error', 'text')
    .addPrimaryKeyConstraint('timelapses_pk', ['webcam_id', 'day', 'level'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('timelapses').execute();
}
