import type { Bus } from '@lakecams/bus';
import { SERVICES } from '@lakecams/contracts';
import { errorsPlugin, healthPlugin, metricsPlugin, REQUEST_ID_HEADER, requestIdOf } from '@lakecams/service-kit';
import { randomBytes } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { TrustProxy } from './config.ts';
import { antiForgeryPlugin } from './plugins/anti-forgery.ts';
import { apiReferencePlugin } from './plugins/api-reference.ts';
import { apiRoutingPlugin } from './plugins/api-routing.ts';
import { frontendsPlugin, type FrontendsOptions } from './plugins/frontends.ts';
import { liveEventsPlugin } from './plugins/live-events.ts';
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
  await frontendsPlugin(app, options);
  return app;
}
