import { createInProcessBus } from '@lakecams/bus';
import { SERVICES, type ServiceName } from '@lakecams/contracts';
import {
  buildGateway,
  defaultRemoteManifests,
  devRemoteOriginsFrom,
  GatewayConfigSchema,
  type ServiceTargets,
} from '@lakecams/gateway';
import {
  buildServiceApp,
  createLogger,
  freePort,
  generateSigningKeys,
  loadConfig,
  loadOrCreateSecret,
  loadOrCreateSigningKeys,
  type MetricsAddress,
  type MetricsServer,
  type ServiceApp,
  serveMetrics,
  withDatabase,
} from '@lakecams/service-kit';
import {
  type IdentityConfig,
  type IdentityOptions,
  identityOptionsFromConfig,
  loadIdentityConfig,
} from '@lakecams/svc-identity';
import {
  ftpOptionsFromConfig,
  type ImagingConfig,
  type ImagingOptions,
  imagingOptionsFromConfig,
  loadImagingConfig,
} from '@lakecams/svc-imaging';
import { loadRefererConfig, type RefererConfig, refererOptionsFromConfig } from '@lakecams/svc-referer';
import {
  loadWebcamConfig,
  type WebcamConfig,
  type WebcamServiceOptions,
  webcamOptionsFromConfig,
} from '@lakecams/svc-webcam';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { fileURLToPath } from 'node:url';
import { type RunningPostgres, startEmbeddedPostgres } from './embedded-postgres.ts';
import { SERVICE_DEFINITIONS } from './services.ts';

export interface PortalOptions {
  host?: string;
  /** Gateway port; 0 picks a free one. */
  port?: number;
  /** Where every app's metrics are served (`METRICS_HOST`, `METRICS_PORT`; port 0 picks one); none when not given. */
  metrics?: MetricsAddress;
  dataDir?: string;
  logLevel?: string;
  /** Where the log lines go, as JSON (tests read them all); stdout by default. */
  logDestination?: DestinationStream;
  /** Use this PostgreSQL server instead of starting the embedded one (tests on the machine's server). */
  databaseServerUrl?: string;
  /** Service databases are `<prefix>_<service>`. */
  databasePrefix?: string;
  embeddedPostgresPort?: number;
  demoCameras?: boolean;
  remotes?: Record<string, string>;
  frontendRoot?: string;
  /** First administrator; without it a demo admin is created on an empty database. */
  admin?: IdentityOptions['admin'];
  /** Outgoing mail via SMTP instead of the outbox folder. */
  smtpUrl?: string;
  rateLimitPerMinute?: number;
  /** Access token lifetime (tests shorten it). */
  accessTokenTtlSeconds?: number;
  /**
   * The FTP ingest for cameras that push (`npm start`: FTP_PORT, 2121 by default); with FTPS by a certificate
   * made for the data folder when FTP_TLS_CERT/KEY are not set. None when not given.
   */
  ftp?: { port: number };
  /** Satellite tiles for the map (tests serve them locally). */
  mapTiles?: { url: string; attribution: string };
  /** Run capture schedules (default on). */
  schedule?: boolean;
  /** Minutes of demo history rendered for each empty demo camera at start (default 60). */
  demoBackfillMinutes?: number;
  /**
   * Where the services' own settings (MAIL_FROM, RETENTION_DAYS, …; each service's config.ts) and the gateway's
   * are read, as their processes read them in distributed mode; process.env by default.
   */
  environment?: Record<string, string | undefined>;
}

export interface RunningPortal {
  url: string;
  /** Where Prometheus reads `/metrics` of the gateway and the services, when `metrics` was given. */
  metricsUrl?: string;
  gateway: FastifyInstance;
  services: Record<ServiceName, ServiceApp>;
  databaseUrls: Record<ServiceName, string>;
  /** Where mails are written when no SMTP server is configured. */
  outboxDir: string;
  /** Set when this start created the demo administrator (its password is shown only now). */
  demoAdmin: { username: string; password: string } | null;
  close(): Promise<void>;
}

const REPOSITORY_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Each service's settings, read by its own loader (the same as its process in distributed mode). */
export interface ServiceConfigs {
  identityConfig: IdentityConfig;
  webcamConfig: WebcamConfig;
  refererConfig: RefererConfig;
  imagingConfig: ImagingConfig;
}

/** Every service's settings from `env`; a wrong value throws a ConfigError naming the variable. */
export function loadServiceConfigs(env: Record<string, string | undefined> = process.env): ServiceConfigs {
  return {
    identityConfig: loadIdentityConfig(env),
    webcamConfig: loadWebcamConfig(env),
    refererConfig: loadRefererConfig(env),
    imagingConfig: loadImagingConfig(env),
  };
}

/**
 * Each service's options in a one-machine run (embedded, or services started by tests): what the services'
 * own settings say, except what the portal decides itself (the folders under its data folder, its signing key
 * and secrets, the demo, the URLs it knows once it has a port) and what its caller chose (`PortalOptions`).
 */
export function serviceOptionsFor(
  settings: Pick<
    PortalOptions,
    'admin' | 'smtpUrl' | 'rateLimitPerMinute' | 'accessTokenTtlSeconds' | 'demoCameras' | 'environment'
  > &
    Partial<ServiceConfigs> & {
      jwtPrivateKey: string;
      outboxDir: string;
      publicUrl: () => string;
      imageStoreDir: string;
      /** Seals camera passwords when CAMERA_SECRET_KEY is not set (the portal keeps one in its data folder). */
      cameraSecretKey?: string;
      /** The FTP ingest when FTP_PORT is not set, with a certificate of the portal's own. */
      ftp?: { port: number; tls?: { key: Buffer; cert: Buffer } };
      onDemoAdminCreated?: IdentityOptions['onDemoAdminCreated'];
      schedule?: boolean;
      demoBackfillMinutes?: number;
    },
): Record<ServiceName, object> {
  // A config not given is read from the environment, as the service's own process reads it.
  const env = settings.environment ?? process.env;
  const identityConfig = settings.identityConfig ?? loadIdentityConfig(env);
  const webcamConfig = settings.webcamConfig ?? loadWebcamConfig(env);
  const refererConfig = settings.refererConfig ?? loadRefererConfig(env);
  const imagingConfig = settings.imagingConfig ?? loadImagingConfig(env);
  const demo = settings.demoCameras ?? true;

  const identityFromConfig = identityOptionsFromConfig(identityConfig, {
    jwtPrivateKey: settings.jwtPrivateKey,
    ...(settings.onDemoAdminCreated ? { onDemoAdminCreated: settings.onDemoAdminCreated } : {}),
  });
  const identity: IdentityOptions = {
    ...identityFromConfig,
    publicUrl: settings.publicUrl,
    mail: {
      ...identityFromConfig.mail,
      outboxDir: settings.outboxDir,
      ...(settings.smtpUrl ? { smtpUrl: settings.smtpUrl } : {}),
    },
    ...(settings.admin ? { admin: settings.admin } : {}),
    // Without a first administrator an empty database gets a demo admin, its password shown once.
    demoAdmin: true,
    ...(settings.rateLimitPerMinute ? { rateLimitPerMinute: settings.rateLimitPerMinute } : {}),
    ...(settings.accessTokenTtlSeconds ? { accessTokenTtlSeconds: settings.accessTokenTtlSeconds } : {}),
  };
  const webcam: WebcamServiceOptions = {
    ...webcamOptionsFromConfig(webcamConfig),
    demoCameras: demo,
  };
  // The tiers and clip timing as in distributed mode; the folder, schedules and demo follow the portal's options.
  const imaging: ImagingOptions = {
    ...imagingOptionsFromConfig(imagingConfig),
    storeDir: settings.imageStoreDir,
    ...(imagingConfig.CAMERA_SECRET_KEY || !settings.cameraSecretKey
      ? {}
      : { cameraSecretKey: settings.cameraSecretKey }),
    // The portal's FTP ingest (npm start: FTP_PORT), with its own certificate unless FTP_TLS_CERT names one.
    ...(!settings.ftp
      ? {}
      : {
          ftp: {
            ...ftpOptionsFromConfig(imagingConfig, settings.ftp.port),
            ...(settings.ftp.tls && !imagingConfig.FTP_TLS_CERT ? { tls: settings.ftp.tls } : {}),
          },
        }),
    schedule: settings.schedule ?? true,
    demoSource: demo,
    demoBackfillMinutes: settings.demoBackfillMinutes ?? imagingConfig.DEMO_BACKFILL_MINUTES,
  };
  return { identity, webcam, referer: refererOptionsFromConfig(refererConfig), imaging };
}

/**
 * A self-signed certificate for the FTP ingest's FTPS, made once for the data folder with Debian's openssl (cameras
 * seldom check it; an operator with a real one sets FTP_TLS_CERT/KEY). Without a data folder or openssl: plain FTP.
 */
async function ftpCertificate(
  dataDir: string | undefined,
  logger: { warn(object: object, message: string): void },
): Promise<{ tls?: { key: Buffer; cert: Buffer } }> {
  if (!dataDir) return {};
  const key = join(dataDir, 'ftp-tls.key');
  const cert = join(dataDir, 'ftp-tls.crt');
  try {
    return { tls: { key: await readFile(key), cert: await readFile(cert) } };
  } catch {
    // Not made yet.
  }
  try {
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '3650',
      '-subj',
      '/CN=lakecams-ftp',
      '-keyout',
      key,
      '-out',
      cert,
    ]);
    return { tls: { key: await readFile(key), cert: await readFile(cert) } };
  } catch (err) {
    logger.warn({ err }, 'no certificate for FTPS (openssl missing?): the FTP ingest offers plain FTP only');
    return {};
  }
}

/** Embedded mode: gateway and the four services in one process, one PostgreSQL, the in-process bus. */
export async function startPortal(options: PortalOptions = {}): Promise<RunningPortal> {
  const logger = options.logDestination
    ? createLogger(options.logLevel ?? 'info', undefined, 'json', options.logDestination)
    : createLogger(options.logLevel ?? 'info');
  // Read before anything starts: a wrong value stops the start with its message, leaving nothing running.
  const serviceConfigs = loadServiceConfigs(options.environment ?? process.env);
  const gatewayConfig = loadConfig(GatewayConfigSchema, options.environment ?? process.env);
  const devRemoteOrigins = devRemoteOriginsFrom(gatewayConfig.DEV_REMOTE_ORIGINS);
  const host = options.host ?? '127.0.0.1';
  // Chosen before the services start, so the links they make (publicUrl) name it from the start.
  const port = options.port === 0 ? await freePort(host) : (options.port ?? 8080);
  const postgres: RunningPostgres | undefined = options.databaseServerUrl
    ? undefined
    : await startEmbeddedPostgres(options.dataDir ?? 'data', options.embeddedPostgresPort ?? 54329, logger);
  const serverUrl = options.databaseServerUrl ?? (postgres as RunningPostgres).url;
  const prefix = options.databasePrefix ?? 'lakecams';
  // Without a data folder (tests on the machine's PostgreSQL) keys and mails are throw-away.
  const dataDir = options.dataDir ?? join(tmpdir(), `lakecams-${randomBytes(4).toString('hex')}`);
  const signingKeys = options.dataDir
    ? await loadOrCreateSigningKeys(join(dataDir, 'jwt-signing-key.pem'))
    : generateSigningKeys();
  // Kept, so a restart leaves open pages' anti-forgery tokens valid.
  const antiForgerySecret = options.dataDir
    ? await loadOrCreateSecret(join(dataDir, 'anti-forgery.secret'))
    : randomBytes(32).toString('hex');
  // Kept, so camera passwords stored before a restart can still be opened.
  const cameraSecretKey = options.dataDir
    ? await loadOrCreateSecret(join(dataDir, 'camera.secret'))
    : randomBytes(32).toString('hex');
  const outboxDir = join(dataDir, 'outbox');
  let demoAdmin: RunningPortal['demoAdmin'] = null;
  let publicUrl = `http://localhost:${port}`;
  const bus = createInProcessBus();
  const services = {} as Record<ServiceName, ServiceApp>;
  const databaseUrls = {} as Record<ServiceName, string>;
  let metrics: MetricsServer | undefined;
  const closeAll = async () => {
    await metrics?.close();
    for (const app of Object.values(services).reverse()) await app.close().catch(() => {});
    await bus.close();
    await postgres?.stop();
  };
  try {
    // Inside: a first administrator set in part stops the start here, and the embedded PostgreSQL with it.
    const serviceOptions = serviceOptionsFor({
      ...options,
      jwtPrivateKey: signingKeys.privateKey,
      outboxDir,
      publicUrl: () => publicUrl,
      imageStoreDir: join(dataDir, 'images'),
      cameraSecretKey,
      ...(options.ftp ? { ftp: { port: options.ftp.port, ...(await ftpCertificate(options.dataDir, logger)) } } : {}),
      ...serviceConfigs,
      onDemoAdminCreated: (credentials) => {
        demoAdmin = credentials;
      },
    });
    for (const service of SERVICES) {
      databaseUrls[service] = withDatabase(serverUrl, `${prefix}_${service}`);
      services[service] = await buildServiceApp(SERVICE_DEFINITIONS[service], {
        bus,
        logger,
        databaseUrl: databaseUrls[service],
        jwtPublicKey: signingKeys.publicKey,
        options: serviceOptions[service],
      });
    }
    const targets = Object.fromEntries(
      SERVICES.map((service) => [service, { kind: 'local', app: services[service] }]),
    ) as ServiceTargets;
    const gateway = await buildGateway({
      bus,
      antiForgerySecret,
      ...(options.mapTiles ? { mapTiles: options.mapTiles } : {}),
      logger,
      targets,
      frontendRoot: options.frontendRoot ?? REPOSITORY_ROOT,
      remotes: { ...defaultRemoteManifests(), ...options.remotes },
      pictureCacheBytes: gatewayConfig.PICTURE_CACHE_MB * 1024 * 1024,
      devRemoteOrigins,
      ...(gatewayConfig.PICTURE_BASE_URL ? { pictureBaseUrl: gatewayConfig.PICTURE_BASE_URL } : {}),
      ...(gatewayConfig.PUBLIC_URL ? { publicUrl: gatewayConfig.PUBLIC_URL } : {}),
      secureCookies: gatewayConfig.COOKIE_SECURE,
    });
    // One process, one scrape: the apps' registries in one answer, told apart by their `service` label.
    if (options.metrics) {
      const registries = [gateway.metrics, ...SERVICES.map((service) => services[service].metrics)];
      metrics = await serveMetrics(registries, options.metrics, gateway.log);
    }
    const address = await gateway.listen({ host, port });
    const url = address.replace('127.0.0.1', 'localhost').replace('[::1]', 'localhost');
    publicUrl = url;
    return {
      url,
      ...(metrics ? { metricsUrl: metrics.url } : {}),
      gateway,
      services,
      databaseUrls,
      outboxDir,
      demoAdmin,
      close: async () => {
        await gateway.close();
        await closeAll();
      },
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
