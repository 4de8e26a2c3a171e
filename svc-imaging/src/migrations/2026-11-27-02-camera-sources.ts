import { sql, type Kysely } from 'kysely';

/**
 * How each camera's pictures arrive: fetched (http, stream) with the camera's login, or pushed by FTP or HTTP
 * with an account of its own. The login's password is sealed (AES-256-GCM); push passwords and secrets are
 * kept only as hashes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('camera_sources')
    .addColumn('webcam_id', 'integer', (c) => c.primaryKey().references('cameras.webcam_id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('http'))
    .addColumn('login_user', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('login_password_sealed', 'text')
    .addColumn('transport', 'text', (c) => c.notNull().defaultTo('tcp'))
    .addColumn('ftp_user', 'text', (c) => c.unique())
    .addColumn('ftp_password_hash', 'text')
    .addColumn('push_secret_hash', 'text')
    .addColumn('last_upload_name', 'text')
    .addColumn('last_upload_at', 'timestamptz')
    .addColumn('last_upload_via', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('camera_sources_kind', sql`kind in ('http', 'stream', 'ftp', 'push')`)
    .addCheckConstraint('camera_sources_transport', sql`transport in ('tcp', 'udp')`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('camera_sources').execute();
}
