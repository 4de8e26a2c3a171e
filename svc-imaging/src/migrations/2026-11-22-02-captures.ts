import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('cameras')
    .addColumn('lat', 'double precision')
    .addColumn('lng', 'double precision')
    .addColumn('direction', 'integer')
    .execute();
  // One row per camera and tick: inserting it is the claim, so only one replica captures a tick.
  await db.schema
    .createTable('captures')
    .addColumn('webcam_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('running', 'done', 'failed')`))
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('claimed_by', 'text', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('duration_ms', 'integer')
    .addColumn('error', 'text')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('bytes', 'integer')
    .addColumn('content_hash', 'text')
    .addColumn('lat', 'double precision')
    .addColumn('lng', 'double precision')
    .addColumn('direction', 'integer')
    .addPrimaryKeyConstraint('captures_pk', ['webcam_id', 'name'])
    .execute();
  await db.schema
    .createIndex('captures_done_latest')
    .on('captures')
    .columns(['webcam_id', 'name'])
    .where(sql.ref('status'), '=', 'done')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('captures').execute();
  await db.schema.alterTable('cameras').dropColumn('lat').dropColumn('lng').dropColumn('direction').execute();
}
