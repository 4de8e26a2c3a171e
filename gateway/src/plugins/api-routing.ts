import replyFrom from '@fastify/reply-from';
import { type Bus, type Subscription, typedBus } from '@lakecams/bus';
import { ownerOfApiPath, PICTURE_PATH_PREFIX } from '@lakecams/contracts';
import { AccessApplied } from '@lakecams/contracts/messages';
import { errorBody, pictureCacheLookups, REQUEST_ID_HEADER } from '@lakecams/service-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayPictureCache, headersFromMemory, keptHeaders, pictureCameraOf } from '../picture-cache.ts';
import { replicaPicker, type ServiceTarget, type ServiceTargets } from '../service-targets.ts';

interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Buffer;
}

/** Methods a picture takes; anything else is 405 with these in `Allow`. */
const PICTURE_METHODS = ['GET', 'HEAD'];

/** A URL as the proxy or `fetch` would send it on: dot segments resolved, characters escaped. */
const asSentOn = (url: string) => {
  const parsed = new URL(url, 'http://gateway.invalid');
  return `${parsed.pathname}${parsed.search}`;
};

/**
 * Whether a path holds a `.` or `..` segment (also escaped, or after a backslash): the proxy's URL parser would
 * resolve it, sending `/api/Webcam/../../health` to a service's own `/health` or `/api/Webcam/../Authenticate/…`
 * to the wrong service. No route of the portal has one.
 */
export const hasDotSegment = (url: string) =>
  (url.split('?')[0] ?? '')
    .replace(/%2e/gi, '.')
    .split(/\/|\\|%2f|%5c/i)
    .some((segment) => segment === '.' || segment === '..');

/**
 * `/api/<Controller>/…` → the owning service (the CONTROLLER_OWNERS table in @lakecams/contracts), and
 * `/pictures/…` to svc-imaging, public ones kept in memory; `bus`: where svc-imaging says a camera's access
 * changed, so its pictures are forgotten.
 */
export async function apiRoutingPlugin(
  app: FastifyInstance,
  options: { targets: ServiceTargets; pictureCacheBytes?: number; bus?: Bus },
) {
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
    if (hasDotSegment(request.url))
      return reply.code(404).send(errorBody(404, `No service answers ${request.url.split('?')[0]}`));
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
        [REQUEST_ID_HEADER]: request.id,
      }),
      onError: (fromReply, { error }) => {
        request.log.warn({ err: error, service: owner }, 'service unreachable');
        fromReply.code(503).send(errorBody(503, `Service ${owner} is unavailable, please retry shortly`));
      },
    });
  };
  app.all('/api/*', { schema: { hide: true } }, route);

  // Pictures by their immutable names: shared by caches, so they take no cookie and no API session, and the
  // gateway keeps the public ones in memory (docs/decisions.md, "Pictures in the gateway's memory").
  const cacheBytes = options.pictureCacheBytes ?? 0;
  const pictures =
    cacheBytes > 0 ? new GatewayPictureCache(cacheBytes, pictureCacheLookups(app.metrics, 'gateway')) : null;
  const fetching = new Map<string, Promise<Answer | null>>();
  const fetchPicture = async (request: FastifyRequest, target: ServiceTarget): Promise<Answer | null> => {
    const headers = { 'x-forwarded-for': request.ip, [REQUEST_ID_HEADER]: request.id };
    if (target.kind === 'local') {
      const answer = await target.app.inject({ method: 'GET', url: request.url, headers });
      return { statusCode: answer.statusCode, headers: answer.headers, body: answer.rawPayload };
    }
    const base = pickers.get('imaging')?.() ?? '';
    const answer = await fetch(new URL(request.url, base), { headers, redirect: 'manual' }).catch((error) => {
      request.log.warn({ err: error, service: 'imaging' }, 'service unreachable');
      return null;
    });
    if (!answer) return null;
    return {
      statusCode: answer.status,
      headers: Object.fromEntries(answer.headers),
      body: Buffer.from(await answer.arrayBuffer()),
    };
  };
  const send = (reply: FastifyReply, answer: Pick<Answer, 'statusCode' | 'body'>, headers: Record<string, string>) =>
    reply.code(answer.statusCode).headers(headers).send(answer.body);

  if (pictures && options.bus) {
    let subscription: Subscription | undefined = await typedBus(options.bus, app.log).subscribe(
      AccessApplied,
      ({ camera }) => {
        pictures.forgetCamera(camera, Date.now());
        // Requests arriving from now on do not wait for an answer asked for under the old access.
        for (const url of fetching.keys()) if (pictureCameraOf(url) === camera) fetching.delete(url);
      },
    );
    app.addHook('onClose', async () => {
      await subscription?.unsubscribe();
      subscription = undefined;
    });
  }

  app.route({
    method: app.supportedMethods.filter((method) => !PICTURE_METHODS.includes(method)),
    url: `${PICTURE_PATH_PREFIX}*`,
    schema: { hide: true },
    handler: (request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      const allowed = PICTURE_METHODS.join(', ');
      return reply
        .code(405)
        .header('allow', allowed)
        .send(errorBody(405, `${request.method} is not allowed on ${path}; it takes ${allowed}`));
    },
  });

  app.get(`${PICTURE_PATH_PREFIX}*`, { schema: { hide: true } }, async (request, reply) => {
    // The service judges the spelling a cache keys on (docs/decisions.md, "One address per picture"): a URL the
    // proxy would send on rewritten (`..`, unescaped characters) is no picture's address.
    if (asSentOn(request.url) !== request.url)
      return reply.code(404).send(errorBody(404, `Not the address of a picture: ${request.url.split('?')[0]}`));
    const conditional =
      request.headers['if-none-match'] !== undefined ||
      request.headers['if-modified-since'] !== undefined ||
      request.headers.range !== undefined ||
      // The service refuses it from anybody but an Admin, before any route runs.
      request.headers.impersonate !== undefined;
    if (!pictures || request.method !== 'GET' || conditional) return route(request, reply);
    const now = Date.now();
    const cached = pictures.get(request.url, now);
    // `x-gateway-cache` tells operators and tests what came from memory, as nginx's X-Cache-Status does.
    if (cached) return send(reply, cached, { ...headersFromMemory(cached, now), 'x-gateway-cache': 'hit' });
    let pending = fetching.get(request.url);
    if (!pending) {
      const asked = fetchPicture(request, options.targets.imaging).finally(() => {
        if (fetching.get(request.url) === asked) fetching.delete(request.url);
      });
      pending = asked;
      fetching.set(request.url, asked);
      const answer = await asked;
      if (answer) {
        const headers = keptHeaders(answer.headers);
        pictures.offer(request.url, { ...answer, headers }, answer.headers, Date.now(), now);
      }
    }
    const answer = await pending;
    if (!answer) return reply.code(503).send(errorBody(503, 'Service imaging is unavailable, please retry shortly'));
    const location = answer.headers.location;
    return send(reply, answer, {
      ...keptHeaders(answer.headers),
      ...(typeof location === 'string' ? { location } : {}),
    });
  });
}
