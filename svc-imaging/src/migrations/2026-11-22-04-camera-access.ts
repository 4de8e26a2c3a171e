import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The camera's whole access state as svc-webcam last announced it.
  await db.schema
    .createTable('camera_access')
    .addColumn('webcam_id', 'integer', (c) => c.primaryKey())
    .addColumn('configurations', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('bookings', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('permitted_user_ids', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('camera_access').execute();
}
