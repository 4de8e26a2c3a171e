import { type Kysely, sql } from 'kysely';

/** Per camera whether the operator was last told it is offline: one mail per transition across replicas. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('camera_health_notices')
    .addColumn('webcam_id', 'integer', (c) => c.primaryKey().references('cameras.webcam_id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('camera_health_notices_state', sql`state in ('ok', 'offline')`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('camera_health_notices').execute();
}
