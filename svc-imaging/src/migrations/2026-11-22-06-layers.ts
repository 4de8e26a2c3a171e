import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // svc-referer's layers with their images, as it announces them: drawing needs no call on the hot path.
  await db.schema
    .createTable('layers')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('camera_id', 'integer', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('cron', 'text', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('image', 'bytea', (c) => c.notNull())
    .addColumn('image_hash', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('layers_camera_url').on('layers').columns(['camera_id', 'url']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('layers').execute();
}
