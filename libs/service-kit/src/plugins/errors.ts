import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { STATUS_CODES } from 'node:http';
import { Type } from 'typebox';

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

/** The uniform 4xx/5xx body, for route schemas. */
export const ErrorSchema = Type.Object({ statusCode: Type.Integer(), error: Type.String(), message: Type.String() });

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
      // PostgreSQL "data exception" (class 22): a value from the request does not fit its column (an id
      // beyond integer, a NUL character in text, …), so it is the request that is wrong.
      if (typeof error.code === 'string' && /^22[0-9A-Z]{3}$/.test(error.code) && !error.statusCode) {
        return reply.code(400).send(errorBody(400, `Invalid value in the request: ${error.message}`));
      }
      // A foreign key the request named is gone (a deleted camera, a token outliving its user).
      if (error.code === '23503') {
        return reply.code(409).send(errorBody(409, 'The request refers to something that does not exist (any more)'));
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
