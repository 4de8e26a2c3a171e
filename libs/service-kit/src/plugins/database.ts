import type { FastifyBaseLogger, FastifyInstance, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { createKysely, migrateToLatest } from '../database.ts';
import { ensureDatabase } from '../database-url.ts';

export interface DatabasePluginOptions {
  connectionString: string;
  migrations: Record<string, Migration>;
  /** Create the database when missing (embedded mode, tests, one shared server). */
  createIfMissing?: boolean;
}

/**
 * Kysely + pg for the service's own database, typed by its tables: migrations run on start, the pool closes
 * on shutdown. Registered as the `database` plugin (its readiness check).
 */
export async function openServiceDatabase<DB>(
  log: FastifyBaseLogger,
  options: DatabasePluginOptions,
): Promise<{ db: Kysely<DB>; plugin: FastifyPluginAsync }> {
  if (options.createIfMissing) await ensureDatabase(options.connectionString);
  const db = createKysely<DB>({ connectionString: options.connectionString });
  try {
    const { results } = await migrateToLatest(db, options.migrations);
    for (const result of results ?? []) log.info({ migration: result.migrationName }, 'migration applied');
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const plugin = fp(
    async (instance: FastifyInstance) => {
      instance.addReadinessCheck('database', async () => {
        await sql`select 1`.execute(db);
        return true;
      });
      instance.addHook('onClose', async () => {
        await db.destroy();
      });
    },
    { name: 'database', dependencies: ['health'] },
  );
  return { db, plugin };
}
