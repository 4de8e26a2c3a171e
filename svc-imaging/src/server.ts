import { BaseConfigSchema, loadConfig, runService, exitOnConfigError } from '@lakecams/service-kit';
import { join } from 'node:path';
import { Type } from 'typebox';
import { imagingService } from './app.ts';
import { createNatsImageStore } from './nats-image-store.ts';

const config = exitOnConfigError(() =>
  loadConfig(
    Type.Object({
      NATS_URL: BaseConfigSchema.properties.NATS_URL,
      BUS_NAMESPACE: BaseConfigSchema.properties.BUS_NAMESPACE,
      NATS_STREAM_REPLICAS: BaseConfigSchema.properties.NATS_STREAM_REPLICAS,
      /** `files` (a folder; shared volume across hosts) or `nats` (JetStream object store on NATS_URL). */
      IMAGE_STORE: Type.Enum(['files', 'nats'], { default: 'files' }),
      DATA_DIR: Type.String({ default: './data' }),
      IMAGE_STORE_DIR: Type.Optional(Type.String()),
      REPLICA_ID: Type.Optional(Type.String()),
      DEMO_SOURCE: Type.Boolean({ default: false }),
      DEMO_BACKFILL_MINUTES: Type.Integer({ minimum: 0, default: 60 }),
      RETENTION_DAYS: Type.Integer({ minimum: 1, default: 14 }),
      ARCHIVE_DAYS: Type.Integer({ minimum: 1, default: 365 }),
      CAPTURE_TAKEOVER_SECONDS: Type.Integer({ minimum: 2, default: 20 }),
      TIMELAPSE_TODAY_MINUTES: Type.Integer({ minimum: 1, default: 10 }),
    }),
  ),
);

if (config.IMAGE_STORE === 'nats' && !config.NATS_URL) throw new Error('IMAGE_STORE=nats needs NATS_URL');
const imageStore =
  config.IMAGE_STORE === 'nats'
    ? await createNatsImageStore({
        servers: config.NATS_URL as string,
        namespace: config.BUS_NAMESPACE,
        retentionDays: config.RETENTION_DAYS,
        replicas: config.NATS_STREAM_REPLICAS,
      })
    : undefined;

await runService(imagingService, {
  storeDir: config.IMAGE_STORE_DIR ?? join(config.DATA_DIR, 'images'),
  ...(imageStore ? { imageStore } : {}),
  schedule: true,
  demoSource: config.DEMO_SOURCE,
  demoBackfillMinutes: config.DEMO_BACKFILL_MINUTES,
  retentionDays: config.RETENTION_DAYS,
  archiveDays: config.ARCHIVE_DAYS,
  timelapseTodayMinutes: config.TIMELAPSE_TODAY_MINUTES,
  takeoverAfterMs: config.CAPTURE_TAKEOVER_SECONDS * 1000,
  heartbeatMs: Math.min(5000, (config.CAPTURE_TAKEOVER_SECONDS * 1000) / 4),
  ...(config.REPLICA_ID ? { replicaId: config.REPLICA_ID } : {}),
});
