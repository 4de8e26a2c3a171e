import type { Kysely } from 'kysely';

/** Each picture's quality score (from svc-imaging), and an admin's choice of a camera's best picture of a day. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webcam_images').addColumn('score', 'real').execute();
  await db.schema
    .createTable('best_of_choices')
    .addColumn('webcam_id', 'integer', (c) => c.notNull().references('webcams.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('best_of_choices_pk', ['webcam_id', 'day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('best_of_choices').execute();
  await db.schema.alterTable('webcam_images').dropColumn('score').execute();
}
