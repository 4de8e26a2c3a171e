import { type Kysely, sql } from 'kysely';

/** Events acted on, by id, so that one delivered again (the bus delivers at least once) is acted on once. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('handled_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('handled_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('handled_events_handled_at').on('handled_events').column('handled_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('handled_events').execute();
}
