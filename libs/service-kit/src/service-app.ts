import { type Bus, withRequestId } from '@lakecams/bus';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyPluginOptions,
} from 'fastify';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Logger } from 'pino';
import { authPlugin } from './plugins/auth.ts';
import { bodiesPlugin } from './plugins/bodies.ts';
import { busPlugin } from './plugins/bus.ts';
import { openServiceDatabase } from './plugins/database.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { healthPlugin } from './plugins/health.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { privateAnswersPlugin } from './plugins/private-answers.ts';
import { swaggerPlugin } from './plugins/swagger.ts';
import { requestIdOf } from './request-id.ts';
import { requestValidators, schemaErrorMessage } from './validation.ts';

/**
 * What a service is: its name, its own migrations and the plugin holding its routes and domain. The plugin
 * gets the service's database typed by its own tables (`DB`); a service without migrations has none.
 */
export interface ServiceDefinition<Options extends FastifyPluginOptions = FastifyPluginOptions, DB = never> {
  name: string;
  version: string;
  migrations?: Record<string, Migration>;
  plugin: (app: FastifyInstance, options: Options, db: Kysely<DB>) => Promise<void>;
}

/** Where and how one instance of a service runs: the same service runs embedded or distributed. */
export interface ServiceRuntime<Options extends FastifyPluginOptions = FastifyPluginOptions> {
  bus: Bus;
  logger: Logger;
  databaseUrl?: string | undefined;
  createDatabaseIfMissing?: boolean;
  jwtPublicKey?: string | undefined;
  /** Service-specific options passed to its plugin. */
  options?: Options;
}

export type ServiceApp = FastifyInstance;

/** The shared skeleton: external plugins first (errors, health, metrics, OpenAPI, db, bus, auth), then the service. */
export async function buildServiceApp<Options extends FastifyPluginOptions, DB>(
  definition: ServiceDefinition<Options, DB>,
  runtime: ServiceRuntime<Options>,
): Promise<ServiceApp> {
  const app = Fastify({
    loggerInstance: runtime.logger.child({ service: definition.name }),
    // Per-request logs would dominate the log at image-serving rates; metrics cover requests.
    logController: new LogController({ disableRequestLogging: true }),
    // The gateway's request id, so one visitor's request can be followed across processes.
    requestIdHeader: false,
    genReqId: requestIdOf,
    bodyLimit: 1024 * 1024,
    // Bodies keep their JSON types, query strings are parsed; see requestValidators.
    schemaController: {
      compilersFactory: {
        buildValidator: requestValidators({ removeAdditional: true, useDefaults: true, allErrors: false }),
      },
    },
    schemaErrorFormatter: schemaErrorMessage,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Bus messages sent while serving a request carry its id.
  app.addHook('onRequest', (request, _reply, done) => withRequestId(request.id, done));
  await app.register(errorsPlugin);
  await app.register(bodiesPlugin);
  await app.register(privateAnswersPlugin);
  await app.register(healthPlugin);
  await app.register(metricsPlugin, { service: definition.name });
  await app.register(swaggerPlugin, {
    service: definition.name,
    version: definition.version,
  });
  let db: Kysely<DB> | undefined;
  if (definition.migrations) {
    if (!runtime.databaseUrl) throw new Error(`svc-${definition.name} needs a database: set DATABASE_URL`);
    const opened = await openServiceDatabase<DB>(app.log, {
      connectionString: runtime.databaseUrl,
      migrations: definition.migrations,
      createIfMissing: runtime.createDatabaseIfMissing ?? true,
    });
    db = opened.db;
    await app.register(opened.plugin);
  }
  await app.register(busPlugin, {
    bus: runtime.bus,
    service: definition.name,
    version: definition.version,
    // The outbox relay listens there for commits with events.
    ...(db && runtime.databaseUrl ? { db, databaseUrl: runtime.databaseUrl } : {}),
  });
  await app.register(authPlugin, { publicKey: runtime.jwtPublicKey });
  // Not encapsulated: the service owns this instance, and its decorations are reachable from it (tests, runners).
  const database = db ?? noDatabase<DB>(definition.name);
  const plugin: FastifyPluginAsync<Options> = (instance, options) => definition.plugin(instance, options, database);
  await app.register(fp(plugin, { name: `svc-${definition.name}` }), (runtime.options ?? {}) as Options);
  await app.ready();
  return app as unknown as ServiceApp;
}

/** The database of a service without migrations: any use says so. */
function noDatabase<DB>(service: string): Kysely<DB> {
  return new Proxy(Object.create(null), {
    get: () => {
      throw new Error(`svc-${service} has no database: give it migrations`);
    },
  });
}
