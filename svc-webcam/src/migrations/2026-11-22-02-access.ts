import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Users as svc-identity announces them, for names and emails in the administration.
  await db.schema
    .createTable('known_users')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_confirmed', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createTable('camera_permissions')
    .addColumn('webcam_id', 'integer', (c) => c.notNull().references('webcams.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addPrimaryKeyConstraint('camera_permissions_pk', ['webcam_id', 'user_id'])
    .execute();
  // user_id null: the quality for all other users.
  await db.schema
    .createTable('camera_configurations')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('webcam_id', 'integer', (c) => c.notNull().references('webcams.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid')
    .addColumn('quality', 'text', (c) => c.notNull().check(sql`quality in ('POOR', 'LOW', 'MEDIUM', 'HIGH', 'FULL')`))
    .execute();
  await sql`create unique index camera_configurations_one_per_user on camera_configurations (webcam_id, user_id) nulls not distinct`.execute(
    db,
  );
  await db.schema
    .createTable('referer_bookings')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('webcam_id', 'integer', (c) => c.notNull().references('webcams.id').onDelete('cascade'))
    .addColumn('start_day', 'date', (c) => c.notNull())
    .addColumn('end_day', 'date', (c) => c.notNull())
    .addColumn('quality', 'text', (c) => c.notNull().check(sql`quality in ('POOR', 'LOW', 'MEDIUM', 'HIGH', 'FULL')`))
    .addColumn('referer_user_id', 'integer')
    .addColumn('referer_user_text', 'text')
    .addColumn('url', 'text')
    .addCheckConstraint('referer_bookings_days', sql`start_day <= end_day`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['referer_bookings', 'camera_configurations', 'camera_permissions', 'known_users']) {
    await db.schema.dropTable(table).execute();
  }
}
