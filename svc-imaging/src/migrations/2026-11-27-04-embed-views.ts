import type { Kysely } from 'kysely';

/**
 * How often a booked page showed the embedded player, per camera and day: the booking's page and a number,
 * nothing of the visitor (docs/decisions.md, "Counting embed views").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('embed_views')
    .addColumn('webcam_id', 'integer', (c) => c.notNull().references('cameras.webcam_id').onDelete('cascade'))
    .addColumn('page', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('views', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('embed_views_pkey', ['webcam_id', 'page', 'day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('embed_views').execute();
}
