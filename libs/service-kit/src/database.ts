import { CamelCasePlugin, Kysely, PostgresDialect } from 'kysely';
import { type Migration, type MigrationResultSet, Migrator } from 'kysely/migration';
import pg from 'pg';

// bigint (int8) counts come back as strings by default; our ids and counts fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
// A calendar day stays `YYYY-MM-DD`: turning it into a Date would shift it by the time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

export interface DatabaseOptions {
  connectionString: string;
  /** Fail fast when PostgreSQL does not answer, so callers get a 503 instead of hanging. */
  connectionTimeoutMs?: number;
  maxConnections?: number;
}

export function createKysely<DB>(options: DatabaseOptions): Kysely<DB> {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 3000,
    idleTimeoutMillis: 30_000,
  });
  // A client losing its connection must not crash the process, whether idle in the pool (pool 'error') or
  // checked out between two queries of a transaction (its own 'error'); the next query reconnects.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  // Tables and columns are snake_case in SQL and camelCase in TypeScript.
  return new Kysely<DB>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new CamelCasePlugin()],
  });
}

/** Run a service's own migrations (a static, date-prefixed record) up to the latest. */
export async function migrateToLatest<DB>(
  db: Kysely<DB>,
  migrations: Record<string, Migration>,
): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    // Migrations are untyped by design (frozen in time).
    db: db as never,
    provider: { getMigrations: async () => migrations },
  });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error instanceof Error ? result.error : new Error(String(result.error));
  return result;
}
