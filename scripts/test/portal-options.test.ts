import { loadImagingConfig } from '@lakecams/svc-imaging';
import { describe, expect, it } from 'vitest';
import { serviceOptionsFor } from '../portal.ts';

const portalSettings = {
  jwtPrivateKey: 'unused',
  outboxDir: '/tmp/outbox',
  publicUrl: () => 'http://localhost:8080',
  imageStoreDir: '/data/images',
};

describe('embedded portal: svc-imaging reads the same settings as in distributed mode', () => {
  it('passes RETENTION_DAYS, ARCHIVE_DAYS and TIMELAPSE_TODAY_MINUTES through to svc-imaging', () => {
    const imagingConfig = loadImagingConfig({
      RETENTION_DAYS: '30',
      ARCHIVE_DAYS: '730',
      TIMELAPSE_TODAY_MINUTES: '3',
      DEMO_BACKFILL_MINUTES: '15',
    });
    const options = serviceOptionsFor({ ...portalSettings, imagingConfig });
    expect(options.imaging).toMatchObject({
      retentionDays: 30,
      archiveDays: 730,
      timelapseTodayMinutes: 3,
      demoBackfillMinutes: 15,
    });
  });

  it('keeps the portal folder, schedule and demo settings over the environment', () => {
    const imagingConfig = loadImagingConfig({
      IMAGE_STORE_DIR: '/elsewhere',
      DEMO_SOURCE: 'false',
      DEMO_BACKFILL_MINUTES: '15',
      RETENTION_DAYS: '30',
    });
    const options = serviceOptionsFor({
      ...portalSettings,
      imagingConfig,
      schedule: false,
      demoCameras: true,
      demoBackfillMinutes: 0,
    });
    expect(options.imaging).toMatchObject({
      storeDir: '/data/images',
      schedule: false,
      demoSource: true,
      demoBackfillMinutes: 0,
      retentionDays: 30,
    });
  });

  it('uses the defaults of svc-imaging when nothing is set', () => {
    const options = serviceOptionsFor({ ...portalSettings, imagingConfig: loadImagingConfig({}) });
    expect(options.imaging).toMatchObject({
      storeDir: '/data/images',
      schedule: true,
      demoSource: true,
      demoBackfillMinutes: 60,
      retentionDays: 14,
      archiveDays: 365,
      timelapseTodayMinutes: 10,
    });
  });
});
