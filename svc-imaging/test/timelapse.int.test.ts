import { AccessChanged } from '@lakecams/contracts/messages';
import { ADMIN_ROLE, generateSigningKeys, type ServiceApp } from '@lakecams/service-kit';
import { createSigner } from 'fast-jwt';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureTick } from '../src/capture/capture-tick.ts';
import type { CameraRow } from '../src/database.ts';
import { renderDemoImage } from '../src/capture/demo-source.ts';
import { FFMPEG_PATH } from '../src/archive/timelapse-encoder.ts';
import { dayOf, makeTimelapse } from '../src/archive/timelapse-maker.ts';
import { buildImagingService, imagingPartsOf, type ImagingTestService } from '../src/testing.ts';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const VIP = '44444444-4444-4444-8444-444444444444';
const FRAMES = 30;

/** What ffmpeg reads from a clip: its size, duration and decoded frame count. */
async function probe(bytes: Buffer) {
  const dir = await mkdtemp(join(tmpdir(), 'lakecams-probe-'));
  try {
    await writeFile(join(dir, 'clip.mp4'), bytes);
    const { stderr } = await promisify(execFile)(FFMPEG_PATH, [
      '-hide_banner',
      '-i',
      join(dir, 'clip.mp4'),
      '-f',
      'null',
      '-',
    ]);
    const [, width, height] = /Video: h264[^\n]*?, (\d+)x(\d+)/.exec(stderr) ?? [];
    const [, hh, mm, ss] = /Duration: (\d+):(\d+):([\d.]+)/.exec(stderr) ?? [];
    const frames = [...stderr.matchAll(/frame=\s*(\d+)/g)].at(-1)?.[1];
    return {
      width: Number(width),
      height: Number(height),
      seconds: Number(hh) * 3600 + Number(mm) * 60 + Number(ss),
      frames: Number(frames),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const isoOf = (day: string) => `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`;

describe('day time-lapse clips', () => {
  let service: ImagingTestService;
  let app: ServiceApp;
  let camera: CameraRow;
  const now = new Date();
  const yesterday = dayOf(new Date(now.getTime() - 24 * 3600_000));
  const today = dayOf(now);
  const url = (day: string) => `/api/Image/Timelapse/camera/Zeitraffer/${isoOf(day)}.mp4`;

  beforeAll(async () => {
    service = await buildImagingService({ keys, options: { timelapseTodayMinutes: 10 } });
    app = service.app;
    camera = await service.upsertCamera({ id: 7, name: 'Zeitraffer' });
    const demo = {
      ...imagingPartsOf(app).capture.context,
      source: (c: CameraRow, at: Date) => renderDemoImage(c.name, at),
    };
    // Yesterday from 08:00 UTC (the same day in Zurich) every 5 minutes, and today's latest minutes.
    const [y, m, d] = [yesterday.slice(0, 4), yesterday.slice(4, 6), yesterday.slice(6, 8)].map(Number) as [
      number,
      number,
      number,
    ];
    for (let i = 0; i < FRAMES; i++) await captureTick(demo, camera, new Date(Date.UTC(y, m - 1, d, 8, i * 5)));
    const minute = Math.floor(now.getTime() / 60_000) * 60_000;
    for (let i = 0; i < 3; i++) {
      const tick = new Date(minute - i * 60_000);
      if (dayOf(tick) === today) await captureTick(demo, camera, tick);
    }
  }, 120_000);

  afterAll(async () => {
    await service?.close();
  });

  it("gives an anonymous visitor the day's pictures as an H.264 MP4 at POOR, made once and then served", async () => {
    const response = await app.inject({ url: url(yesterday) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('video/mp4');
    expect(response.headers['x-image-quality']).toBe('POOR');
    expect(response.rawPayload.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(await probe(response.rawPayload)).toEqual({ width: 480, height: 270, seconds: 2.5, frames: FRAMES });
    const again = await app.inject({ url: url(yesterday) });
    expect(again.headers.etag).toBe(response.headers.etag);
    expect(
      (await imagingPartsOf(app).timelapseRepository.find({ webcamId: 7, day: yesterday, level: 'POOR' }))?.framesDone,
    ).toBe(FRAMES);
  }, 60_000);

  it('gives the entitled level, capped at MEDIUM (1280 px), and nothing above it to an anonymous visitor', async () => {
    await service.bus.publishEvent(AccessChanged.subject, {
      webcamId: 7,
      permittedUserIds: [],
      configurations: [{ userId: VIP, quality: 'FULL' }],
      bookings: [],
    });
    const vip = { authorization: `Bearer ${sign({ sub: VIP, role: [] })}` };
    // Waited for on the picture, not the clip: a signed-in user gets LOW until the configuration arrives, and
    // asking for the clip meanwhile would make yesterday's LOW clip, which the replicas' test below makes.
    await expect
      .poll(
        async () =>
          (await app.inject({ url: '/api/Image/Get/camera/Zeitraffer.jpg', headers: vip })).headers['x-image-quality'],
        { timeout: 60_000 },
      )
      .toBe('FULL; own configuration');
    expect((await app.inject({ url: url(yesterday), headers: vip })).headers['x-image-quality']).toBe('MEDIUM');
    const clip = await app.inject({ url: url(yesterday), headers: vip });
    expect((await probe(clip.rawPayload)).width).toBe(1280);
    expect(clip.headers['cache-control']).toMatch(/^private/);
    const anonymous = await app.inject({ url: url(yesterday) });
    expect(anonymous.headers['x-image-quality']).toBe('POOR');
    expect((await probe(anonymous.rawPayload)).width).toBe(480);
  }, 120_000);

  it('answers a byte range, as browsers ask when seeking', async () => {
    const whole = await app.inject({ url: url(yesterday) });
    const part = await app.inject({ url: url(yesterday), headers: { range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${whole.rawPayload.length}`);
    expect(part.rawPayload).toEqual(whole.rawPayload.subarray(100, 200));
    const beyond = await app.inject({ url: url(yesterday), headers: { range: 'bytes=99999999-' } });
    expect(beyond.statusCode).toBe(416);
  });

  it('refuses an unknown camera, a malformed day, a day off the calendar or to come, and a day without pictures', async () => {
    const tomorrow = dayOf(new Date(now.getTime() + 36 * 3600_000));
    const cases: [string, number, RegExp][] = [
      [`/api/Image/Timelapse/camera/Niemand/${isoOf(yesterday)}.mp4`, 404, /Unknown camera/],
      ['/api/Image/Timelapse/camera/Zeitraffer/20261124.mp4', 400, /yyyy-MM-dd/],
      ['/api/Image/Timelapse/camera/Zeitraffer/2026-02-30.mp4', 400, /not a date/],
      [url(tomorrow), 400, /still to come/],
      ['/api/Image/Timelapse/camera/Zeitraffer/2020-01-01.mp4', 404, /No pictures/],
      ['/api/Image/Timelapse/camera/..%2F..%2Fetc/2020-01-01.mp4', 400, /camera name/],
    ];
    for (const [path, status, message] of cases) {
      const response = await app.inject({ url: path });
      expect([path, response.statusCode]).toEqual([path, status]);
      expect(response.json()).toMatchObject({ statusCode: status, message: expect.stringMatching(message) });
    }
  });

  it('lets one of two replicas make a clip; the other skips it', async () => {
    const replicas = ['imaging-a', 'imaging-b'].map((replicaId) => ({
      ...imagingPartsOf(app).timelapses.context,
      replicaId,
    }));
    const outcomes = await Promise.all(replicas.map((context) => makeTimelapse(context, camera, yesterday, 'LOW')));
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['made', 'skipped']);
    // A finished day, made once, is not made again.
    expect((await makeTimelapse(replicas[0] as never, camera, yesterday, 'LOW')).outcome).toBe('skipped');
  }, 60_000);

  it("makes today's clip again after N minutes, not before", async () => {
    const t0 = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
    const at = (minutes: number) => ({
      ...imagingPartsOf(app).timelapses.context,
      clock: () => new Date(t0.getTime() + minutes * 60_000),
    });
    expect((await makeTimelapse(at(0), camera, today, 'POOR')).outcome).toBe('made');
    expect((await makeTimelapse(at(9), camera, today, 'POOR')).outcome).toBe('skipped');
    expect((await makeTimelapse(at(10), camera, today, 'POOR')).outcome).toBe('made');
    // The schedule remakes the clips visitors asked for, on the same clock.
    const scheduled = await imagingPartsOf(app).timelapses.runScheduledPass(new Date(t0.getTime() + 15 * 60_000));
    expect(scheduled.filter((o) => o.outcome === 'made')).toHaveLength(0);
    const later = await imagingPartsOf(app).timelapses.runScheduledPass(new Date(t0.getTime() + 20 * 60_000));
    expect(later.filter((o) => o.outcome === 'made').length).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('removes the clips of days past the retention, as their pictures go', async () => {
    const old = new Date(now.getTime() - 20 * 24 * 3600_000);
    const oldDay = dayOf(old);
    const demo = {
      ...imagingPartsOf(app).capture.context,
      source: (c: CameraRow, at: Date) => renderDemoImage(c.name, at),
    };
    const [y, m, d] = [oldDay.slice(0, 4), oldDay.slice(4, 6), oldDay.slice(6, 8)].map(Number) as [
      number,
      number,
      number,
    ];
    for (let i = 0; i < 3; i++) await captureTick(demo, camera, new Date(Date.UTC(y, m - 1, d, 9, i * 5)));
    expect((await makeTimelapse(imagingPartsOf(app).timelapses.context, camera, oldDay, 'POOR')).outcome).toBe('made');
    expect(await imagingPartsOf(app).capture.store.readClip('Zeitraffer', oldDay, 'POOR')).not.toBeNull();
    await imagingPartsOf(app).timelapses.runScheduledPass(now);
    expect(await imagingPartsOf(app).capture.store.readClip('Zeitraffer', oldDay, 'POOR')).toBeNull();
    expect(
      await imagingPartsOf(app).timelapseRepository.find({ webcamId: 7, day: oldDay, level: 'POOR' }),
    ).toBeUndefined();
    expect(await imagingPartsOf(app).capture.store.readClip('Zeitraffer', yesterday, 'POOR')).not.toBeNull();
  }, 60_000);

  it('shows the jobs with their progress to an Admin only', async () => {
    const admin = {
      authorization: `Bearer ${sign({ sub: '66666666-6666-4666-8666-666666666666', role: [ADMIN_ROLE] })}`,
    };
    const jobs = await app.inject({ url: '/api/Jobs/timelapses', headers: admin });
    expect(jobs.statusCode).toBe(200);
    expect(jobs.json()).toContainEqual(
      expect.objectContaining({
        camera: 'Zeitraffer',
        day: yesterday,
        level: 'POOR',
        status: 'done',
        progress: 100,
        frames: FRAMES,
      }),
    );
    expect((await app.inject({ url: '/api/Jobs/timelapses' })).statusCode).toBe(401);
  });
});
