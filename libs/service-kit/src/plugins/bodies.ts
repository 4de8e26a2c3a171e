import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { httpError } from './errors.ts';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The `charset` parameter of a Content-Type header, lower case and unquoted; null without one. */
export function charsetOf(contentType: string | undefined): string | null {
  const match = /;\s*charset\s*=\s*("?)([^";\s]*)\1/i.exec(contentType ?? '');
  return match ? (match[2] ?? '').toLowerCase() : null;
}

/** What a body of another type is told: the media types the services read. */
function unreadType(request: FastifyRequest) {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim() || 'without a Content-Type';
  return httpError(
    415,
    `A body ${type === 'without a Content-Type' ? type : `of type ${type}`} is not read here: send application/json (uploads: multipart/form-data)`,
  );
}

/**
 * Which request bodies services read (docs/decisions.md, "Body types and bounds"): JSON in UTF-8, and the forms
 * of the routes that register multipart. Any other type with a body is 415 (Fastify would read text/plain and the
 * route would then see no fields); JSON in another charset is 415, and bytes that are no UTF-8 are 400 instead of
 * being stored as U+FFFD.
 */
export const bodiesPlugin = fp(
  async (app: FastifyInstance) => {
    const parseJson = app.getDefaultJsonParser(
      app.initialConfig.onProtoPoisoning ?? 'error',
      app.initialConfig.onConstructorPoisoning ?? 'error',
    );
    app.removeContentTypeParser(['application/json', 'text/plain']);
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      // No route, no body to read: the answer is 404 or 405.
      if (request.is404) return done(null, undefined);
      const charset = charsetOf(request.headers['content-type']);
      if (charset !== null && charset !== 'utf-8' && charset !== 'utf8')
        return done(httpError(415, `JSON is read in UTF-8 only, not charset=${charset}`), undefined);
      let text: string;
      try {
        text = strictUtf8.decode(body as Buffer);
      } catch {
        return done(httpError(400, 'The body is not valid UTF-8'), undefined);
      }
      parseJson(request, text, done);
    });
    // An empty body of any type is no body: a client may send a Content-Type with nothing after it. Left unread
    // otherwise: the errors plugin drains it before the answer goes out.
    app.addContentTypeParser('*', (request, _payload, done) => {
      const length = request.headers['content-length'];
      if (request.is404 || (length === '0' && request.headers['transfer-encoding'] === undefined))
        return done(null, undefined);
      done(unreadType(request), undefined);
    });
  },
  { name: 'bodies' },
);
