import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Type } from 'typebox';

export type ReadinessCheck = () => Promise<boolean> | boolean;

declare module 'fastify' {
  interface FastifyInstance {
    /** Register a check that must pass for `/ready` to answer 200. */
    addReadinessCheck(name: string, check: ReadinessCheck): void;
    checkReadiness(): Promise<{
      ready: boolean;
      checks: Record<string, boolean>;
    }>;
  }
}

const Status = Type.Object({
  status: Type.String(),
  checks: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
});

/** `/health`: the process is alive. `/ready`: every dependency (database, bus, …) answers. */
export const healthPlugin = fp(
  async (app: FastifyInstance) => {
    const checks = new Map<string, ReadinessCheck>();
    app.decorate('addReadinessCheck', (name: string, check: ReadinessCheck) => {
      checks.set(name, check);
    });
    app.decorate('checkReadiness', async () => {
      const results: Record<string, boolean> = {};
      await Promise.all(
        [...checks].map(async ([name, check]) => {
          results[name] = await Promise.resolve()
            .then(check)
            .catch(() => false);
        }),
      );
      return { ready: Object.values(results).every(Boolean), checks: results };
    });
    app.get('/health', { schema: { hide: true, response: { 200: Status } } }, async () => ({ status: 'ok' }));
    app.get('/ready', { schema: { hide: true, response: { 200: Status, 503: Status } } }, async (_request, reply) => {
      const { ready, checks: results } = await app.checkReadiness();
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks: results });
    });
  },
  { name: 'health' },
);
