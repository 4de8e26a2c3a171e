import replyFrom from '@fastify/reply-from';
import { ownerOfApiPath, PICTURE_PATH_PREFIX } from '@lakecams/contracts';
import { errorBody } from '@lakecams/service-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { replicaPicker, type ServiceTargets } from '../service-targets.ts';

/** `/api/<Controller>/…` → the owning service (the CONTROLLER_OWNERS table in @lakecams/contracts). */
export async function apiRoutingPlugin(app: FastifyInstance, options: { targets: ServiceTargets }) {
  await app.register(replyFrom, {
    undici: { connections: 128, pipelining: 1, keepAliveTimeout: 60_000 },
  });
  // Bodies pass through untouched: the owning service parses and validates them. The body is the raw
  // stream, not read here: the proxy pipes it on, an in-process service reads it itself.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  const pickers = new Map(
    Object.entries(options.targets).flatMap(([service, target]) =>
      target.kind === 'remote' ? [[service, replicaPicker(target.urls)] as const] : [],
    ),
  );

  const route = (request: FastifyRequest, reply: FastifyReply) => {
    const owner = ownerOfApiPath(request.url);
    if (!owner) return reply.code(404).send(errorBody(404, `No service answers ${request.url.split('?')[0]}`));
    const target = options.targets[owner];
    if (target.kind === 'local') {
      // As the proxy below does: the client must not pick its own X-Forwarded-For (rate limits are keyed on it);
      // request.ip is the connecting address, or what a trusted proxy (TRUST_PROXY) says.
      request.raw.headers['x-forwarded-for'] = request.ip;
      reply.hijack();
      target.app.routing(request.raw, reply.raw);
      return;
    }
    const base = pickers.get(owner)?.() ?? '';
    return reply.from(new URL(request.url, base).toString(), {
      rewriteRequestHeaders: (original, headers) => ({
        ...headers,
        'x-forwarded-for': request.ip,
        'x-forwarded-host': original.headers.host ?? '',
      }),
      onError: (fromReply, { error }) => {
        request.log.warn({ err: error, service: owner }, 'service unreachable');
        fromReply.code(503).send(errorBody(503, `Service ${owner} is unavailable, please retry shortly`));
      },
    });
  };
  app.all('/api/*', { schema: { hide: true } }, route);
  // Pictures by their immutable names: shared by caches, so they take no cookie and no API session.
  app.get(`${PICTURE_PATH_PREFIX}*`, { schema: { hide: true } }, route);
}
