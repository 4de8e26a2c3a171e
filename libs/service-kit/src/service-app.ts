import type { Bus } from '@lakecams/bus';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyPluginOptions,
} from 'fastify';
import type { Migration } from 'kysely/migration';
import type { Logger } from 'pino';
import { authPlugin } from './plugins/auth.ts';
import { busPlugin } from './plugins/bus.ts';
import { databasePlugin } from './plugins/database.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { healthPlugin } from './plugins/health.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { swaggerPlugin } from './plugins/swagger.ts';
import { requestIdOf } from './request-id.ts';
import { requestValidators, schemaErrorMessage } from './validation.ts';

/** What a service is: its name, its own migrations and the plugin holding its routes and domain. */
export interface ServiceDefinition<Options extends FastifyPluginOptions = FastifyPluginOptions> {
  name: string;
  version: string;
  migrations?: Record<string, Migration>;
  plugin: FastifyPluginAsync<Options>;
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
export async function buildServiceApp<Options extends FastifyPluginOptions>(
  definition: ServiceDefinition<Options>,
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

  await app.register(errorsPlugin);
  await app.register(healthPlugin);
  await app.register(metricsPlugin, { service: definition.name });
  await app.register(swaggerPlugin, {
    service: definition.name,
    version: definition.version,
  });
  if (definition.migrations) {
    if (!runtime.databaseUrl) throw new Error(`svc-${definition.name} needs a database: set DATABASE_URL`);
    await app.register(databasePlugin, {
      connectionString: runtime.databaseUrl,
      migrations: definition.migrations,
      createIfMissing: runtime.createDatabaseIfMissing ?? true,
    });
  }
  await app.register(busPlugin, {
    bus: runtime.bus,
    service: definition.name,
    version: definition.version,
    // The outbox relay listens there for commits with events.
    ...(definition.migrations && runtime.databaseUrl ? { databaseUrl: runtime.databaseUrl } : {}),
  });
  await app.register(authPlugin, { publicKey: runtime.jwtPublicKey });
  // Not encapsulated: the service owns this instance, and its decorations are reachable from it (tests, runners).
  await app.register(fp(definition.plugin, { name: `svc-${definition.name}` }), (runtime.options ?? {}) as Options);
  await app.ready();
  return app as unknown as ServiceApp;
}
