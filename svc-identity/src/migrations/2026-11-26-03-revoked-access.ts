import type { Kysely } from 'kysely';

/** Access tokens revoked by a log-off: token and session ids, kept until the tokens have expired. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('revoked_access')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('revoked_access').execute();
}
