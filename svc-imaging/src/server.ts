import { loadConfig, runService } from '@lakecams/service-kit';
import { join } from 'node:path';
import { Type } from 'typebox';
import { imagingService } from './app.ts';

const config = loadConfig(
  Type.Object({
    DATA_DIR: Type.String({ default: './data' }),
    IMAGE_STORE_DIR: Type.Optional(Type.String()),
    REPLICA_ID: Type.Optional(Type.String()),
    DEMO_SOURCE: Type.Boolean({ default: false }),
    DEMO_BACKFILL_MINUTES: Type.Integer({ minimum: 0, default: 60 }),
    RETENTION_DAYS: Type.Integer({ minimum: 1, default: 14 }),
    CAPTURE_TAKEOVER_SECONDS: Type.Integer({ minimum: 2, default: 20 }),
  }),
);

await runService(imagingService, {
  storeDir: config.IMAGE_STORE_DIR ?? join(config.DATA_DIR, 'images'),
  schedule: true,
  demoSource: config.DEMO_SOURCE,
  demoBackfillMinutes: config.DEMO_BACKFILL_MINUTES,
  retentionDays: config.RETENTION_DAYS,
  takeoverAfterMs: config.CAPTURE_TAKEOVER_SECONDS * 1000,
  heartbeatMs: Math.min(5000, (config.CAPTURE_TAKEOVER_SECONDS * 1000) / 4),
  ...(config.REPLICA_ID ? { replicaId: config.REPLICA_ID } : {}),
});
