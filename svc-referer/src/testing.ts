/** For tests, this package's own and other packages' (`@lakecams/svc-referer/testing`). */
import type { Bus } from '@lakecams/bus';
import {
  buildServiceApp,
  createKysely,
  createLogger,
  generateSigningKeys,
  type ServiceApp,
  type ServiceRuntime,
  type SigningKeys,
} from '@lakecams/service-kit';
import { createTestBus, createTestDatabase } from '@lakecams/service-kit/testing';
import type { Kysely } from 'kysely';
import { refererService } from './app.ts';
import type { Database } from './database.ts';

export type { Database } from './database.ts';

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

export interface BuildRefererServiceOptions {
  /** The bus of another service in the same test, which closes it; by default a test bus of its own. */
  bus?: Bus;
  /** A database to start on again, which the caller drops; by default a fresh one. */
  database?: TestDatabase;
  /** The keys access tokens are signed with, shared with the test's other services; by default new ones. */
  keys?: SigningKeys;
  /** By default silent. */
  logger?: ServiceRuntime['logger'];
}

export type RefererTestService = Awaited<ReturnType<typeof buildRefererService>>;

/**
 * svc-referer for one test: on a fresh test database and the test bus (in-process, or NATS with `TEST_BUS=nats`),
 * with a silent logger and new signing keys unless given. `db` is the test's own connection to the service's
 * database. `close()` closes the app, that connection, then the bus and the database it created.
 */
export async function buildRefererService(given: BuildRefererServiceOptions = {}) {
  const keys = given.keys ?? generateSigningKeys();
  const logger = given.logger ?? createLogger('silent');
  const testBus = given.bus ? undefined : await createTestBus();
  const bus = given.bus ?? (testBus?.bus as Bus);
  const database = given.database ?? (await createTestDatabase('referer'));
  const closeOwn = async () => {
    await testBus?.close();
    if (!given.database) await database.drop();
  };

  let app: ServiceApp;
  try {
    app = await buildServiceApp(refererService, {
      bus,
      logger,
      databaseUrl: database.url,
      jwtPublicKey: keys.publicKey,
      options: {},
    });
  } catch (error) {
    await closeOwn();
    throw error;
  }
  const db: Kysely<Database> = createKysely<Database>({ connectionString: database.url });
  return {
    app,
    bus,
    database,
    db,
    keys,
    async close() {
      await app.close();
      await db.destroy();
      await closeOwn();
    },
  };
}
