import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { createKysely, migrateToLatest } from '../database.ts';
import { ensureDatabase } from '../database-url.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The service's own database; repositories type it with their `Database` interface. */
    db: Kysely<unknown>;
  }
}

export interface DatabasePluginOptions {
  connectionString: string;
  migrations: Record<string, Migration>;
  /** Create the database when missing (embedded mode, tests, one shared server). */
  createIfMissing?: boolean;
}

/** Kysely + pg for the service's own database; migrations run on start, pool closed on shutdown. */
export const databasePlugin = fp(
  async (app: FastifyInstance, options: DatabasePluginOptions) => {
    if (options.createIfMissing) await ensureDatabase(options.connectionString);
    const db = createKysely<unknown>({
      connectionString: options.connectionString,
    });
    const { results } = await migrateToLatest(db, options.migrations);
    for (const result of results ?? []) app.log.info({ migration: result.migrationName }, 'migration applied');
    app.decorate('db', db);
    app.addReadinessCheck('database', async () => {
      await sql`select 1`.execute(db);
      return true;
    });
    app.addHook('onClose', async () => {
      await db.destroy();
    });
  },
  { name: 'database', dependencies: ['health'] },
);
