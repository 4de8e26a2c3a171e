import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { ConfigError } from '../config.ts';
import { errorBody } from './errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Registry;
  }
}

/** Where Prometheus reads a process's metrics: its own address, never the public port. */
export const METRICS_PATH = '/metrics';

/**
 * Prometheus metrics in `app.metrics`, one registry per app so several apps can share a process; `serveMetrics`
 * answers them on a port of their own. The public port answers `/metrics` as any unknown path (404), so the
 * gateway does not take it for a page either.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, options: { service: string }) => {
    const registry = new Registry();
    registry.setDefaultLabels({ service: options.service });
    collectDefaultMetrics({ register: registry });
    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    });
    app.decorate('metrics', registry);
    if (app.hasDecorator('checkReadiness')) {
      new Gauge({
        name: 'lakecams_ready',
        help: '1 while /ready would answer 200 (every dependency answers), else 0',
        registers: [registry],
        async collect() {
          this.set((await app.checkReadiness()).ready ? 1 : 0);
        },
      });
    }
    app.addHook('onResponse', async (request, reply) => {
      duration.observe(
        {
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          status_code: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
    });
    app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) =>
      reply.code(404).send(errorBody(404, `Route ${request.method} ${METRICS_PATH} not found`)),
    );
  },
  { name: 'metrics' },
);

export interface MetricsAddress {
  host: string;
  port: number;
}

/** `METRICS_PORT` on `METRICS_HOST`, or no metrics without a port; the public port is refused. */
export function metricsAddressFrom(config: {
  PORT: number;
  METRICS_HOST: string;
  METRICS_PORT?: number | undefined;
}): MetricsAddress | undefined {
  if (config.METRICS_PORT === undefined) return undefined;
  if (config.METRICS_PORT !== 0 && config.METRICS_PORT === config.PORT) {
    throw new ConfigError(`METRICS_PORT must not be PORT (${config.PORT}): metrics are not for the public`);
  }
  return { host: config.METRICS_HOST, port: config.METRICS_PORT };
}

/**
 * Several apps' expositions as one (the embedded portal's apps share a process): each family's HELP and TYPE
 * once, then every app's samples, which their `service` label keeps apart.
 */
export function mergeExpositions(texts: readonly string[]): string {
  const families = new Map<string, string[]>();
  for (const text of texts) {
    for (const block of text.split(/^(?=# HELP )/m)) {
      const lines = block.split('\n').filter((line) => line !== '');
      const name = /^# HELP (\S+)/.exec(lines[0] ?? '')?.[1];
      if (!name) continue;
      const family = families.get(name);
      if (family) family.push(...lines.filter((line) => !line.startsWith('#')));
      else families.set(name, lines);
    }
  }
  return [...families.values()].map((lines) => `${lines.join('\n')}\n`).join('\n');
}

export interface MetricsServer {
  /** `http://host:port`; Prometheus reads `${url}/metrics`. */
  url: string;
  close(): Promise<void>;
}

/** Answers the registries' metrics at `/metrics` on `address`, a port Prometheus reaches and visitors do not. */
export async function serveMetrics(
  registries: readonly Registry[],
  address: MetricsAddress,
  logger?: FastifyBaseLogger,
): Promise<MetricsServer> {
  const server = Fastify({
    ...(logger ? { loggerInstance: logger.child({ component: 'metrics' }) } : {}),
    logController: new LogController({ disableRequestLogging: true }),
  });
  server.get(METRICS_PATH, async (_request, reply) => {
    const texts = await Promise.all(registries.map((registry) => registry.metrics()));
    return reply.type(Registry.PROMETHEUS_CONTENT_TYPE).send(mergeExpositions(texts));
  });
  const url = await server.listen(address);
  return { url, close: () => server.close() };
}
