import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Registry;
  }
}

/** Prometheus metrics at `/metrics`, one registry per app so several apps can share a process. */
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
      const route = request.routeOptions.url ?? 'unmatched';
      if (route === '/metrics') return;
      duration.observe(
        {
          method: request.method,
          route,
          status_code: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
    });
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  },
  { name: 'metrics' },
);
