import type { Bus } from '@lakecams/bus';
import { SERVICES } from '@lakecams/contracts';
import { errorsPlugin, healthPlugin, metricsPlugin, REQUEST_ID_HEADER, requestIdOf } from '@lakecams/service-kit';
import { randomBytes } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { TrustProxy } from './config.ts';
import { antiForgeryPlugin } from './plugins/anti-forgery.ts';
import { apiReferencePlugin } from './plugins/api-reference.ts';
import { apiRoutingPlugin } from './plugins/api-routing.ts';
import {
  DEFAULT_MAP_TILES,
  frontendsPlugin,
  type FrontendsOptions,
  remoteManifestSource,
} from './plugins/frontends.ts';
import { isCrossOriginRead } from './cross-origin-reads.ts';
import { embedPlayerPlugin } from './plugins/embed-player.ts';
import { liveEventsPlugin } from './plugins/live-events.ts';
import {
  foreignOrigins,
  framingOf,
  LOOPBACK_ORIGINS,
  NO_SOURCES,
  type PolicySources,
  securityHeaders,
  tileOrigins,
  wantsDevSources,
} from './security-headers.ts';
import { isTargetReady, type ServiceTargets } from './service-targets.ts';

export interface GatewayOptions extends FrontendsOptions {
  logger: Logger;
  targets: ServiceTargets;
  /** Mark cookies Secure and give them the `__Host-` prefix (served over https). */
  secureCookies?: boolean;
  /** Signs the anti-forgery tokens; replicas need the same one. Random (this process only) when not given. */
  antiForgerySecret?: string;
  /** Proxies whose X-Forwarded-For is believed (Fastify `trustProxy`); none by default. */
  trustProxy?: TrustProxy;
  /** The bus new images arrive on; live page updates need it. */
  bus?: Bus;
  /** Where browsers fetch pictures when not from this host (`PICTURE_BASE_URL`); the page's policy allows it. */
  pictureBaseUrl?: string;
  /** Bytes of public pictures kept in memory (`PICTURE_CACHE_MB`); none when 0 or not given. */
  pictureCacheBytes?: number;
}

/** The gateway: `/api/*` to the owning service, the front ends, `/remotes.json`, `/health`, `/ready`. */
export async function buildGateway(options: GatewayOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger.child({
      service: 'gateway',
    }) as FastifyBaseLogger,
    // Per-request logs would dominate the log at image-serving rates; metrics cover requests.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: options.trustProxy ?? false,
    requestIdHeader: false,
    genReqId: requestIdOf,
  });
  // Every service the request reaches logs it under the same id, and the visitor gets it back.
  app.addHook('onRequest', async (request, reply) => {
    request.raw.headers[REQUEST_ID_HEADER] = request.id;
    // On the raw answer: a service in this process writes the answer itself.
    reply.raw.setHeader(REQUEST_ID_HEADER, request.id);
  });
  // Security headers on every answer, set on the raw answer for the same reason; a page sets its own policy.
  const remoteManifests = remoteManifestSource(options);
  const tiles = tileOrigins((options.mapTiles ?? DEFAULT_MAP_TILES).url);
  const devOrigins = [...LOOPBACK_ORIGINS, ...(options.devRemoteOrigins ?? [])];
  const pictures = foreignOrigins(options.pictureBaseUrl ? [options.pictureBaseUrl] : []);
  // The remotes' origins, read at most once a second: every answer needs them, a release changes them rarely.
  let remoteOrigins: { at: number; origins: Promise<string[]> } | null = null;
  const remotesOf = (request: FastifyRequest) => {
    if (!remoteOrigins || Date.now() - remoteOrigins.at >= 1000) {
      remoteOrigins = {
        at: Date.now(),
        origins: remoteManifests(request.log).then((manifests) => foreignOrigins(Object.values(manifests))),
      };
    }
    return remoteOrigins.origins;
  };
  const policySources = async (request: FastifyRequest): Promise<PolicySources> => ({
    remotes: await remotesOf(request),
    tiles,
    pictures,
    dev: wantsDevSources(request.url, request.headers.cookie) ? devOrigins : [],
  });
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // Pictures have a fixed policy: their rate is the portal's highest, so nothing is read for them.
    const sources = framingOf(path) === 'anyone' ? NO_SOURCES : await policySources(request);
    const headers = securityHeaders(path, sources, { https: options.secureCookies ?? false });
    for (const [name, value] of Object.entries(headers)) reply.raw.setHeader(name, value);
    if (isCrossOriginRead(request.method, path)) reply.raw.setHeader('access-control-allow-origin', '*');
  });
  await app.register(errorsPlugin, { notFound: false });
  await app.register(healthPlugin);
  await app.register(metricsPlugin, { service: 'gateway' });
  // Ready only when every service is.
  for (const service of SERVICES) {
    app.addReadinessCheck(`svc-${service}`, () => isTargetReady(options.targets[service]));
  }
  await app.register(antiForgeryPlugin, {
    secureCookie: options.secureCookies ?? false,
    secret: options.antiForgerySecret ?? randomBytes(32).toString('hex'),
  });
  if (options.bus) await app.register(liveEventsPlugin, { bus: options.bus });
  await app.register(apiReferencePlugin, { targets: options.targets });
  await app.register(apiRoutingPlugin, {
    targets: options.targets,
    pictureCacheBytes: options.pictureCacheBytes ?? 0,
    ...(options.bus ? { bus: options.bus } : {}),
  });
  await app.register(embedPlayerPlugin, { frontendRoot: options.frontendRoot });
  await frontendsPlugin(app, { ...options, remoteManifests, policySources });
  return app;
}
