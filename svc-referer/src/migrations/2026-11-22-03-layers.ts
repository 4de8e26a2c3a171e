import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('layers')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('referer_user_id', 'integer', (c) => c.notNull().references('referer_users.id').onDelete('cascade'))
    .addColumn('camera_id', 'integer', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('cron', 'text', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('image', 'bytea', (c) => c.notNull())
    .addColumn('image_hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('layers_camera').on('layers').columns(['camera_id', 'referer_user_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('layers').execute();
}
