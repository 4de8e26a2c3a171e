import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A running capture renews this; a claim whose heartbeat stopped is taken over by another replica.
  await db.schema
    .alterTable('captures')
    .addColumn('heartbeat_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('captures_running')
    .on('captures')
    .column('heartbeat_at')
    .where(sql.ref('status'), '=', 'running')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('captures').dropColumn('heartbeat_at').execute();
}
