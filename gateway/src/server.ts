import { createBus } from '@lakecams/bus';
import {
  createLogger,
  exitOnConfigError,
  listenWithGrace,
  loadConfig,
  metricsAddressFrom,
  serveMetrics,
} from '@lakecams/service-kit';
import { buildGateway } from './app.ts';
import {
  devRemoteOriginsFrom,
  GatewayConfigSchema,
  remoteManifestsFrom,
  remoteTargetsFrom,
  trustProxyFrom,
} from './config.ts';
import { DEFAULT_MAP_TILES } from './plugins/frontends.ts';

const config = exitOnConfigError(() => loadConfig(GatewayConfigSchema));
const metricsAddress = exitOnConfigError(() => metricsAddressFrom(config));
const logger = createLogger(config.LOG_LEVEL, 'gateway');
const bus = await createBus({
  natsUrl: config.NATS_URL,
  name: 'gateway',
  namespace: config.BUS_NAMESPACE,
  streamReplicas: config.NATS_STREAM_REPLICAS,
});
const app = await buildGateway({
  bus,
  logger,
  targets: remoteTargetsFrom(process.env),
  frontendRoot: config.FRONTEND_ROOT,
  remotes: remoteManifestsFrom(config.REMOTES),
  secureCookies: config.COOKIE_SECURE,
  ...(config.ANTI_FORGERY_SECRET ? { antiForgerySecret: config.ANTI_FORGERY_SECRET } : {}),
  trustProxy: trustProxyFrom(config.TRUST_PROXY),
  pictureCacheBytes: config.PICTURE_CACHE_MB * 1024 * 1024,
  ...(config.PUBLIC_URL ? { publicUrl: config.PUBLIC_URL } : {}),
  ...(config.SHELL_URL ? { shellUrl: config.SHELL_URL } : {}),
  ...(config.PICTURE_BASE_URL ? { pictureBaseUrl: config.PICTURE_BASE_URL } : {}),
  devRemoteOrigins: exitOnConfigError(() => devRemoteOriginsFrom(config.DEV_REMOTE_ORIGINS)),
  ...(config.MAP_TILE_URL
    ? {
        mapTiles: {
          url: config.MAP_TILE_URL,
          attribution: config.MAP_TILE_ATTRIBUTION ?? DEFAULT_MAP_TILES.attribution,
        },
      }
    : {}),
});
if (!config.ANTI_FORGERY_SECRET) {
  logger.warn('ANTI_FORGERY_SECRET is not set: anti-forgery tokens are valid for this gateway process only');
}
const metrics = metricsAddress ? await serveMetrics([app.metrics], metricsAddress, app.log) : undefined;
const url = await listenWithGrace(app, { host: config.HOST, port: config.PORT }, async () => {
  await metrics?.close();
  await bus.close();
});
logger.info({ url, metrics: metrics?.url }, 'gateway listening');
