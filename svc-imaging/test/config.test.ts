import { ConfigError } from '@lakecams/service-kit';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { checkImageStoreSettings, imagingOptionsFromConfig, loadImagingConfig } from '../src/config.ts';

describe('svc-imaging configuration, one loader for its process and the embedded portal', () => {
  it('defaults to the tiers and timings of docs/decisions.md', () => {
    const config = loadImagingConfig({});
    expect(config).toMatchObject({
      IMAGE_STORE: 'files',
      DATA_DIR: './data',
      DEMO_SOURCE: false,
      DEMO_BACKFILL_MINUTES: 60,
      RETENTION_DAYS: 14,
      ARCHIVE_DAYS: 365,
      CAPTURE_TAKEOVER_SECONDS: 20,
      TIMELAPSE_TODAY_MINUTES: 10,
      CAMERA_HEALTH_MAILS: true,
    });
    expect(imagingOptionsFromConfig(config)).toEqual({
      storeDir: join('./data', 'images'),
      schedule: true,
      demoSource: false,
      demoBackfillMinutes: 60,
      retentionDays: 14,
      archiveDays: 365,
      timelapseTodayMinutes: 10,
      healthMails: true,
      takeoverAfterMs: 20_000,
      heartbeatMs: 5000,
      // A secret of the process's own, pictures from this host.
      pictureLinks: {},
    });
  });

  it('takes every value from the environment and turns it into service options', () => {
    const config = loadImagingConfig({
      IMAGE_STORE: 'nats',
      NATS_URL: 'nats://nats:4222',
      IMAGE_STORE_DIR: '/srv/images',
      REPLICA_ID: 'imaging-1',
      DEMO_SOURCE: 'true',
      DEMO_BACKFILL_MINUTES: '0',
      RETENTION_DAYS: '30',
      ARCHIVE_DAYS: '730',
      CAPTURE_TAKEOVER_SECONDS: '8',
      TIMELAPSE_TODAY_MINUTES: '3',
      CAMERA_HEALTH_MAILS: 'false',
      PICTURE_LINK_SECRET: 'a-secret-of-the-imaging-replicas',
      PICTURE_BASE_URL: 'https://pictures.example.org',
      UNRELATED: 'ignored',
    });
    expect(checkImageStoreSettings(config)).toBe(config);
    expect(config).not.toHaveProperty('UNRELATED');
    expect(imagingOptionsFromConfig(config)).toEqual({
      storeDir: '/srv/images',
      schedule: true,
      demoSource: true,
      demoBackfillMinutes: 0,
      retentionDays: 30,
      archiveDays: 730,
      timelapseTodayMinutes: 3,
      healthMails: false,
      takeoverAfterMs: 8000,
      heartbeatMs: 2000,
      replicaId: 'imaging-1',
      pictureLinks: { secret: 'a-secret-of-the-imaging-replicas', baseUrl: 'https://pictures.example.org' },
    });
  });

  it('runs the capture clock faster for tests, from an anchor every replica shares', () => {
    const anchor = Date.UTC(2026, 10, 27, 9);
    const options = imagingOptionsFromConfig(
      loadImagingConfig({ CAPTURE_CLOCK_SCALE: '30', CAPTURE_CLOCK_ANCHOR: String(anchor) }),
    );
    expect(options.clockScale).toBe(30);
    vi.useFakeTimers({ toFake: ['Date'], now: anchor + 2000 });
    const now = options.clock?.();
    vi.useRealTimers();
    // Two real seconds after the anchor, a minute has passed on the capture clock.
    expect(now).toEqual(new Date(anchor + 60_000));
    // Heartbeats and takeovers stay in real seconds: replicas compare them with their own clocks.
    expect(options).toMatchObject({ takeoverAfterMs: 20_000, heartbeatMs: 5000 });
    // Real time unless set, also with an anchor alone.
    expect(imagingOptionsFromConfig(loadImagingConfig({ CAPTURE_CLOCK_ANCHOR: String(anchor) }))).not.toHaveProperty(
      'clock',
    );
  });

  it('refuses a wrong value with a message naming the variable', () => {
    expect(() => loadImagingConfig({ CAPTURE_CLOCK_SCALE: 'schnell' })).toThrow(/CAPTURE_CLOCK_SCALE/);
    expect(() => loadImagingConfig({ CAPTURE_CLOCK_SCALE: '0.5', CAPTURE_CLOCK_ANCHOR: '0' })).toThrow(
      /Invalid configuration: CAPTURE_CLOCK_SCALE/,
    );
    expect(() => loadImagingConfig({ CAPTURE_CLOCK_SCALE: '30', CAPTURE_CLOCK_ANCHOR: 'gestern' })).toThrow(
      /CAPTURE_CLOCK_ANCHOR/,
    );
    expect(() => loadImagingConfig({ CAPTURE_CLOCK_SCALE: '30' })).toThrow(ConfigError);
    expect(() => loadImagingConfig({ CAPTURE_CLOCK_SCALE: '30' })).toThrow(
      'CAPTURE_CLOCK_SCALE needs CAPTURE_CLOCK_ANCHOR',
    );
    expect(() => loadImagingConfig({ RETENTION_DAYS: 'vierzehn' })).toThrow(ConfigError);
    expect(() => loadImagingConfig({ RETENTION_DAYS: 'vierzehn' })).toThrow(/RETENTION_DAYS/);
    expect(() => loadImagingConfig({ ARCHIVE_DAYS: '0' })).toThrow(/Invalid configuration: ARCHIVE_DAYS/);
    expect(() => loadImagingConfig({ TIMELAPSE_TODAY_MINUTES: '-5' })).toThrow(/TIMELAPSE_TODAY_MINUTES/);
    expect(() => loadImagingConfig({ IMAGE_STORE: 's3' })).toThrow(/IMAGE_STORE/);
    // The settings every service reads are checked by the same schema.
    expect(() => loadImagingConfig({ NATS_STREAM_REPLICAS: '9' })).toThrow(/NATS_STREAM_REPLICAS/);
    expect(() => loadImagingConfig({ PICTURE_LINK_SECRET: 'short' })).toThrow(/PICTURE_LINK_SECRET/);
    expect(() => loadImagingConfig({ PICTURE_BASE_URL: 'https://pictures.example.org/path' })).toThrow(
      /PICTURE_BASE_URL/,
    );
    // The service process alone needs NATS for the nats store; the embedded portal never uses it.
    expect(() => checkImageStoreSettings(loadImagingConfig({ IMAGE_STORE: 'nats' }))).toThrow(
      'IMAGE_STORE=nats needs NATS_URL',
    );
  });
});
