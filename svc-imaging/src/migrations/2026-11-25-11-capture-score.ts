import type { Kysely } from 'kysely';

/**
 * Each capture's quality score and a small fingerprint of its picture (to find a frozen camera), and the
 * admins' choices of a day's best picture (announced by svc-webcam), which the archive keeps forever.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('captures').addColumn('score', 'real').addColumn('fingerprint', 'bytea').execute();
  await db.schema
    .createTable('best_of_choices')
    .addColumn('webcam_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('best_of_choices_pk', ['webcam_id', 'day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('best_of_choices').execute();
  await db.schema.alterTable('captures').dropColumn('score').dropColumn('fingerprint').execute();
}
