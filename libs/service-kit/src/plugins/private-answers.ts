import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** What no cache may keep: answers for one caller (docs/decisions.md, "Answers no cache keeps"). */
export const PRIVATE_ANSWER = 'private, no-store';

/**
 * The rule in one place: an answer to a caller who sent a token (bearer header, or the access cookie where the
 * route takes it) and an answer to anything but GET and HEAD (a login, a refresh, a change) carry
 * `Cache-Control: private, no-store`, unless the route said how long its answer may be kept (a picture by its
 * immutable name is the same for everybody). Tokens, roles, profiles and codes are never kept by a browser's
 * cache or a proxy, whatever route adds them later.
 */
export const privateAnswersPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', (request, reply, payload, done) => {
      if (reply.hasHeader('cache-control')) return done(null, payload);
      const changes = request.method !== 'GET' && request.method !== 'HEAD';
      // The Authorization header counts even when its token did not verify: the caller meant it to.
      if (changes || request.principal || request.headers.authorization !== undefined)
        reply.header('cache-control', PRIVATE_ANSWER);
      done(null, payload);
    });
  },
  { name: 'private-answers' },
);
