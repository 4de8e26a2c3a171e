import { createBus } from '@lakecams/bus';
import type { FastifyPluginOptions } from 'fastify';
import { BaseConfigSchema, exitOnConfigError, loadConfig } from './config.ts';
import { databaseUrlFor } from './database-url.ts';
import { metricsAddressFrom, serveMetrics } from './plugins/metrics.ts';
import { createLogger, listenWithGrace } from './server.ts';
import { buildServiceApp, type ServiceDefinition } from './service-app.ts';

/** Run one service as its own process (distributed mode): configuration from the environment. */
export async function runService<Options extends FastifyPluginOptions, DB>(
  definition: ServiceDefinition<Options, DB>,
  options?: Options,
): Promise<void> {
  const config = exitOnConfigError(() => loadConfig(BaseConfigSchema));
  const metricsAddress = exitOnConfigError(() => metricsAddressFrom(config));
  const logger = createLogger(config.LOG_LEVEL, `svc-${definition.name}`);
  const bus = await createBus({
    natsUrl: config.NATS_URL,
    name: `svc-${definition.name}`,
    namespace: config.BUS_NAMESPACE,
    streamReplicas: config.NATS_STREAM_REPLICAS,
  });
  const app = await buildServiceApp(definition, {
    bus,
    logger,
    databaseUrl: databaseUrlFor(definition.name),
    jwtPublicKey: config.JWT_PUBLIC_KEY,
    ...(options ? { options } : {}),
  });
  const metrics = metricsAddress ? await serveMetrics([app.metrics], metricsAddress, app.log) : undefined;
  const url = await listenWithGrace(app, { host: config.HOST, port: config.PORT }, async () => {
    await metrics?.close();
    await bus.close();
  });
  logger.info({ url, metrics: metrics?.url }, `svc-${definition.name} listening`);
}
