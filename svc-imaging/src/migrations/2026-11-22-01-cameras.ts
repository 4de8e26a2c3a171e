import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Imaging's own copy of what it needs to capture, fed by webcam.camera.* events.
  await db.schema
    .createTable('cameras')
    .addColumn('webcam_id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('pattern', 'text', (c) => c.notNull())
    .addColumn('interval_min', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cameras').execute();
}
