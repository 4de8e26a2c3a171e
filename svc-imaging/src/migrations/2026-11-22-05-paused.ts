import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Paused on the job dashboard: scheduled ticks skip the camera until it is resumed.
  await db.schema
    .alterTable('cameras')
    .addColumn('paused', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('cameras').dropColumn('paused').execute();
}
