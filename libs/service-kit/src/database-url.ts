import pg from 'pg';

/**
 * Each service owns one database. `DATABASE_URL_<SERVICE>` wins; otherwise the database
 * `lakecams_<service>` on the server of `DATABASE_URL`.
 */
export function databaseUrlFor(
  service: string,
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  const own = env[`DATABASE_URL_${service.toUpperCase()}`];
  if (own) return own;
  if (!env.DATABASE_URL) return undefined;
  return withDatabase(env.DATABASE_URL, `lakecams_${service}`);
}

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

const DATABASE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Create the database named in `url` if it does not exist yet (connects to the `postgres` maintenance database). */
export async function ensureDatabase(url: string): Promise<void> {
  const database = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!DATABASE_NAME.test(database)) throw new Error(`Refusing to create database with name "${database}"`);
  const client = new pg.Client({
    connectionString: withDatabase(url, 'postgres'),
  });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) {
      try {
        await client.query(`CREATE DATABASE "${database}"`);
      } catch (error) {
        // Another process created it at the same moment.
        if ((error as { code?: string }).code !== '42P04' && (error as { code?: string }).code !== '23505') throw error;
      }
    }
  } finally {
    await client.end();
  }
}

/** Drop a database (tests). Terminates its connections first. */
export async function dropDatabase(url: string): Promise<void> {
  const database = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!DATABASE_NAME.test(database)) throw new Error(`Refusing to drop database with name "${database}"`);
  const client = new pg.Client({
    connectionString: withDatabase(url, 'postgres'),
  });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
