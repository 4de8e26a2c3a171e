import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { STATUS_CODES } from 'node:http';

// PostgreSQL unreachable or shutting down: the request should fail fast as 503, not look like a bug.
const DATABASE_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  '57P01',
  '57P03',
  '08001',
  '08006',
]);

export function errorBody(statusCode: number, message: string) {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

function isDatabaseDown(error: Error & { code?: string }): boolean {
  return (
    (error.code !== undefined && DATABASE_DOWN_CODES.has(error.code)) ||
    error.message === 'Connection terminated unexpectedly' ||
    error.message.startsWith('timeout exceeded when trying to connect')
  );
}

/** Uniform `{ statusCode, error, message }` for every 4xx and 5xx; internals never leak. */
export const errorsPlugin = fp(
  async (app: FastifyInstance, options: { notFound?: boolean }) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (isDatabaseDown(error)) {
        request.log.warn({ err: error }, 'database unavailable');
        return reply.code(503).send(errorBody(503, 'Database unavailable, please retry shortly'));
      }
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
      if (status >= 500) {
        request.log.error({ err: error }, 'request failed');
        return reply.code(status).send(errorBody(status, status === 500 ? 'Internal Server Error' : error.message));
      }
      return reply.code(status).send(errorBody(status, error.message));
    });
    if (options.notFound === false) return;
    app.setNotFoundHandler((request, reply) => {
      reply.code(404).send(errorBody(404, `Route ${request.method} ${request.url.split('?')[0]} not found`));
    });
  },
  { name: 'errors' },
);
