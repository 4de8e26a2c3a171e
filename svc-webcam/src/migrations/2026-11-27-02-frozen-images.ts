import type { Kysely } from 'kysely';

/** Whether each picture has the same bytes as the one before (svc-imaging's "frozen"): the camera page tells. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('webcam_images')
    .addColumn('frozen', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webcam_images').dropColumn('frozen').execute();
}
