import { BaseConfigSchema, ConfigError, loadConfig } from '@lakecams/service-kit';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Static, Type } from 'typebox';
import type { ImagingOptions } from './options.ts';
import { DEFAULT_ARCHIVE_DAYS, DEFAULT_RETENTION_DAYS } from './archive/retention-tiers.ts';
import { scaledClock } from './capture/capture-clock.ts';
import { DEFAULT_TIMELAPSE_TODAY_MINUTES } from './archive/timelapse-maker.ts';

/**
 * svc-imaging's settings from the environment, read by its own process (server.ts) and by the embedded
 * portal (`npm start`), so both keep pictures by the same tiers; the portal decides the folder, schedule and demo.
 */
export const ImagingConfigSchema = Type.Object({
  ...BaseConfigSchema.properties,
  /** `files` (a folder; shared volume across hosts) or `nats` (JetStream object store on NATS_URL). */
  IMAGE_STORE: Type.Enum(['files', 'nats'], { default: 'files' }),
  IMAGE_STORE_DIR: Type.Optional(Type.String()),
  REPLICA_ID: Type.Optional(Type.String()),
  /** Render the pictures of demo cameras (URL path under `/api/Image/DemoSource/`) here rather than fetch them. */
  DEMO_SOURCE: Type.Boolean({ default: false }),
  DEMO_BACKFILL_MINUTES: Type.Integer({ minimum: 0, default: 60 }),
  /** Every capture is kept this many days… */
  RETENTION_DAYS: Type.Integer({ minimum: 1, default: DEFAULT_RETENTION_DAYS }),
  /** …then the best of each hour until this many days; the best of each day forever. */
  ARCHIVE_DAYS: Type.Integer({ minimum: 1, default: DEFAULT_ARCHIVE_DAYS }),
  CAPTURE_TAKEOVER_SECONDS: Type.Integer({ minimum: 2, default: 20 }),
  /**
   * Tests only: the capture clock runs this many times faster than real time (30: a minute in 2 s), counted
   * from CAPTURE_CLOCK_ANCHOR (epoch milliseconds), the same on every replica so they agree on each tick.
   */
  CAPTURE_CLOCK_SCALE: Type.Number({ minimum: 1, maximum: 600, default: 1 }),
  CAPTURE_CLOCK_ANCHOR: Type.Optional(Type.Integer({ minimum: 0 })),
  TIMELAPSE_TODAY_MINUTES: Type.Integer({ minimum: 1, default: DEFAULT_TIMELAPSE_TODAY_MINUTES }),
  /** Mail the operator (svc-identity's OPERATOR_EMAIL) once when a camera goes offline and once when it is back. */
  CAMERA_HEALTH_MAILS: Type.Boolean({ default: true }),
  /** Signs picture links above the public level; the same on every replica (random per process when unset). */
  PICTURE_LINK_SECRET: Type.Optional(Type.String({ minLength: 16 })),
  /** Seals the cameras' login passwords at rest; the same on every replica and kept: without it no password is stored. */
  CAMERA_SECRET_KEY: Type.Optional(Type.String({ minLength: 16 })),
  /** The FTP ingest's control port for cameras that push (e.g. 21 or 2121); unset or 0: no FTP server. */
  FTP_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  /** Its passive data ports, `min-max`, forwarded 1:1 to this process. */
  FTP_PASSIVE_PORTS: Type.String({ pattern: '^\\d{1,5}-\\d{1,5}$', default: '30000-30049' }),
  /** The IPv4 address or name cameras reach it at (PASV replies); unset: the address a camera connected to. */
  FTP_PUBLIC_HOST: Type.Optional(Type.String()),
  /** PEM files of a certificate and key: explicit FTPS (AUTH TLS) is then offered… */
  FTP_TLS_CERT: Type.Optional(Type.String({ minLength: 1 })),
  FTP_TLS_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** …and with this, required. */
  FTP_REQUIRE_TLS: Type.Boolean({ default: false }),
  /** Where browsers fetch pictures, e.g. a cookie-less host `https://pictures.example.org`; this host by default. */
  PICTURE_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://[^/]+$' })),
});
export type ImagingConfig = Static<typeof ImagingConfigSchema>;

/** The FTP ingest's options from its settings, on `port` (the embedded portal picks its own default). */
export function ftpOptionsFromConfig(config: ImagingConfig, port: number): NonNullable<ImagingOptions['ftp']> {
  const [min, max] = config.FTP_PASSIVE_PORTS.split('-').map(Number) as [number, number];
  if (!(min >= 1 && max <= 65535 && min <= max))
    throw new ConfigError(
      `FTP_PASSIVE_PORTS must be a range of ports like 30000-30049, not ${config.FTP_PASSIVE_PORTS}`,
    );
  if (Boolean(config.FTP_TLS_CERT) !== Boolean(config.FTP_TLS_KEY))
    throw new ConfigError('FTP_TLS_CERT and FTP_TLS_KEY go together');
  if (config.FTP_REQUIRE_TLS && !config.FTP_TLS_CERT)
    throw new ConfigError('FTP_REQUIRE_TLS needs FTP_TLS_CERT and FTP_TLS_KEY');
  return {
    port,
    passivePorts: { min, max },
    ...(config.FTP_PUBLIC_HOST ? { publicHost: config.FTP_PUBLIC_HOST } : {}),
    ...(config.FTP_TLS_CERT && config.FTP_TLS_KEY
      ? { tls: { cert: readFileSync(config.FTP_TLS_CERT), key: readFileSync(config.FTP_TLS_KEY) } }
      : {}),
    ...(config.FTP_REQUIRE_TLS ? { requireTls: true } : {}),
  };
}

/** Defaults applied and values converted; a wrong value throws a ConfigError naming the variable. */
export function loadImagingConfig(env: Record<string, string | undefined> = process.env): ImagingConfig {
  const config = loadConfig(ImagingConfigSchema, env);
  if (config.CAPTURE_CLOCK_SCALE !== 1 && config.CAPTURE_CLOCK_ANCHOR === undefined)
    throw new ConfigError(
      'CAPTURE_CLOCK_SCALE needs CAPTURE_CLOCK_ANCHOR, the epoch milliseconds every replica counts the scaled time from',
    );
  return config;
}

/** The service process on its own: the `nats` store needs the NATS server (the embedded portal keeps files). */
export function checkImageStoreSettings(config: ImagingConfig): ImagingConfig {
  if (config.IMAGE_STORE === 'nats' && !config.NATS_URL) throw new ConfigError('IMAGE_STORE=nats needs NATS_URL');
  return config;
}

/**
 * The service options the settings stand for. The image store itself is the caller's: server.ts opens the
 * NATS store for `IMAGE_STORE=nats`; the embedded portal always keeps files.
 */
export function imagingOptionsFromConfig(config: ImagingConfig): ImagingOptions {
  const takeoverAfterMs = config.CAPTURE_TAKEOVER_SECONDS * 1000;
  return {
    storeDir: config.IMAGE_STORE_DIR ?? join(config.DATA_DIR, 'images'),
    schedule: true,
    demoSource: config.DEMO_SOURCE,
    demoBackfillMinutes: config.DEMO_BACKFILL_MINUTES,
    retentionDays: config.RETENTION_DAYS,
    archiveDays: config.ARCHIVE_DAYS,
    timelapseTodayMinutes: config.TIMELAPSE_TODAY_MINUTES,
    healthMails: config.CAMERA_HEALTH_MAILS,
    takeoverAfterMs,
    heartbeatMs: Math.min(5000, takeoverAfterMs / 4),
    ...(config.REPLICA_ID ? { replicaId: config.REPLICA_ID } : {}),
    ...(config.CAPTURE_CLOCK_SCALE !== 1
      ? {
          clock: scaledClock(config.CAPTURE_CLOCK_SCALE, config.CAPTURE_CLOCK_ANCHOR ?? Date.now()),
          clockScale: config.CAPTURE_CLOCK_SCALE,
        }
      : {}),
    ...(config.CAMERA_SECRET_KEY ? { cameraSecretKey: config.CAMERA_SECRET_KEY } : {}),
    ...(config.FTP_PORT ? { ftp: ftpOptionsFromConfig(config, config.FTP_PORT) } : {}),
    pictureLinks: {
      ...(config.PICTURE_LINK_SECRET ? { secret: config.PICTURE_LINK_SECRET } : {}),
      ...(config.PICTURE_BASE_URL ? { baseUrl: config.PICTURE_BASE_URL } : {}),
    },
  };
}
