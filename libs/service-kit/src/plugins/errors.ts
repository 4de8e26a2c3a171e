import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type IncomingMessage, STATUS_CODES } from 'node:http';
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

const ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

/** The uniform 4xx/5xx body, for route schemas. */
export const ErrorSchema = Type.Object({ statusCode: Type.Integer(), error: Type.String(), message: Type.String() });

export function errorBody(statusCode: number, message: string) {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

/** An error answered with this status and message; its cause goes to the log only. */
export function httpError(statusCode: number, message: string, cause?: unknown): Error & { statusCode: number } {
  return Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { statusCode });
}

/** For the `.catch` of a look-up over the bus: answers 503 with `message` and logs why (never swallowed). */
export const unavailable =
  (message: string) =>
  (cause: unknown): never => {
    throw httpError(503, message, cause);
  };

function isDatabaseDown(error: Error & { code?: string }): boolean {
  return (
    (error.code !== undefined && DATABASE_DOWN_CODES.has(error.code)) ||
    error.message === 'Connection terminated unexpectedly' ||
    error.message.startsWith('timeout exceeded when trying to connect')
  );
}

/** An error PostgreSQL answered (pg's DatabaseError: SQLSTATE code, severity, routine). */
function isDatabaseError(error: FastifyError): boolean {
  return typeof error.code === 'string' && /^[0-9A-Z]{5}$/.test(error.code) && 'severity' in error && !error.statusCode;
}

/**
 * What a client is told about an error of PostgreSQL, by SQLSTATE class; its own text names tables, columns
 * and values, so it goes to the log only.
 */
function databaseAnswer(code: string): [number, string] {
  // Class 22 "data exception": a value from the request does not fit its column (a NUL, an id beyond integer).
  if (code.startsWith('22')) return [400, 'A value in the request cannot be stored'];
  if (code === '23503') return [409, 'The request refers to something that does not exist (any more)'];
  if (code === '23505') return [409, 'This exists already'];
  if (code.startsWith('23')) return [400, 'The request breaks a rule of the stored data'];
  // Serialization failures, deadlocks, lack of resources, a statement cancelled: trying again may succeed.
  if (/^(40|53|57)/.test(code)) return [503, 'The database is busy, please retry shortly'];
  return [500, 'Internal Server Error'];
}

/** Discards at most this much of a refused request's body, for at most this long. */
const DRAIN_BYTES = 64 * 1024 * 1024;
const DRAIN_MS = 30_000;

/** Whether the request's body is in (or the connection gone), so the answer can go out and the socket close. */
const bodyDone = (request: IncomingMessage) => request.complete || request.readableEnded || request.destroyed;

/**
 * Reads the rest of a body that was refused unread (a caller without rights, too large, not parseable), so that
 * the answer reaches a client that sends its whole body before it reads: closing a connection with unread data
 * resets it, and such a client sees the reset instead of the answer.
 */
function drained(request: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    let bytes = 0;
    const done = () => {
      clearTimeout(timer);
      request.off('data', discard);
      request.off('end', done);
      request.off('close', done);
      request.off('error', done);
      resolve();
    };
    const discard = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > DRAIN_BYTES) done();
    };
    const timer = setTimeout(done, DRAIN_MS);
    request.on('data', discard);
    request.on('end', done);
    request.on('close', done);
    request.on('error', done);
    request.resume();
  });
}

/** Uniform `{ statusCode, error, message }` for every 4xx and 5xx; internals never leak. */
export const errorsPlugin = fp(
  async (app: FastifyInstance, options: { notFound?: boolean }) => {
    app.addHook('onSend', (request, _reply, _payload, done) => {
      if (bodyDone(request.raw)) return done();
      drained(request.raw).then(() => done());
    });
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (isDatabaseDown(error)) {
        request.log.warn({ err: error }, 'database unavailable');
        return reply.code(503).send(errorBody(503, 'Database unavailable, please retry shortly'));
      }
      if (isDatabaseError(error)) {
        const [status, message] = databaseAnswer(error.code);
        request.log[status >= 500 ? 'error' : 'warn']({ err: error }, 'database refused the request');
        return reply.code(status).send(errorBody(status, message));
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
      const path = request.url.split('?')[0] ?? '';
      // A path that exists with other methods: 405 with the ones it has (RFC 9110), not "not found".
      const allowed = ROUTE_METHODS.filter((method) => app.findRoute({ method, url: path }));
      if (allowed.length > 0) {
        return reply
          .code(405)
          .header('allow', allowed.join(', '))
          .send(errorBody(405, `${request.method} is not allowed on ${path}; it takes ${allowed.join(', ')}`));
      }
      reply.code(404).send(errorBody(404, `Route ${request.method} ${path} not found`));
    });
  },
  { name: 'errors' },
);
