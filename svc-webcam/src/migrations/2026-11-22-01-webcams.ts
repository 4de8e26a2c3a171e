import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webcams')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('pattern', 'text', (c) => c.notNull())
    .addColumn('distance', 'double precision', (c) => c.notNull().check(sql`distance between 1 and 20`))
    .addColumn('angle', 'integer', (c) => c.notNull().check(sql`angle between 1 and 360`))
    .addColumn('interval_min', 'integer', (c) => c.notNull().check(sql`interval_min between 1 and 60`))
    .addColumn('webcam_type', 'text', (c) =>
      c.notNull().defaultTo('STATIC').check(sql`webcam_type in ('STATIC', 'MOBILE', 'ROTATION')`),
    )
    .execute();
  await db.schema
    .createTable('webcam_images')
    .addColumn('webcam_id', 'integer', (c) => c.notNull().references('webcams.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lng', 'double precision', (c) => c.notNull())
    .addColumn('direction', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('webcam_images_pk', ['webcam_id', 'name'])
    .execute();
  await db.schema
    .createTable('news')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('text', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('news').execute();
  await db.schema.dropTable('webcam_images').execute();
  await db.schema.dropTable('webcams').execute();
}
