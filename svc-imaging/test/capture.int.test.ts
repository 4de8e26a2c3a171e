import { CameraDeleted, ImageCaptured, ImagesThinned } from '@lakecams/contracts/messages';
import { type CapturedImage, type Image, imageNameOf } from '@lakecams/contracts';
import type { ServiceApp } from '@lakecams/service-kit';
import { createServer, type Server } from 'node:http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImageStore } from '../src/store/image-store.ts';
import { offlineReason } from '../src/delivery/camera-health.ts';
import { captureTick } from '../src/capture/capture-tick.ts';
import { pruneImages } from '../src/archive/prune.ts';
import { existsSync } from 'node:fs';
import type { CameraRow } from '../src/database.ts';
import { buildImagingService, imagingPartsOf, type ImagingTestService } from '../src/testing.ts';
import { getPicture } from './pictures.ts';

/** A camera on real HTTP: serves a 2560×1440 JPEG, or misbehaves on request. */
async function startCameraServer() {
  const picture = await sharp({ create: { width: 2560, height: 1440, channels: 3, background: '#3a7bd5' } })
    .jpeg()
    .toBuffer();
  const server: Server = createServer((request, response) => {
    if (request.url?.startsWith('/hang')) return; // never answers
    if (request.url?.startsWith('/garbage')) return response.end('this is not a picture');
    if (request.url?.startsWith('/huge')) {
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      const chunk = Buffer.alloc(64 * 1024);
      const timer = setInterval(() => response.write(chunk), 1);
      response.on('close', () => clearInterval(timer));
      return;
    }
    if (request.url?.startsWith('/missing')) {
      response.writeHead(404);
      return response.end();
    }
    response.writeHead(200, { 'content-type': 'image/jpeg' });
    response.end(picture);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('svc-imaging capture and delivery on real PostgreSQL and real HTTP', () => {
  let service: ImagingTestService;
  let app: ServiceApp;
  let camera: Awaited<ReturnType<typeof startCameraServer>>;
  let storeDir: string;
  const captured: Image[] = [];

  const upsert = (id: number, name: string, path: string, intervalMin = 5) =>
    service.upsertCamera({
      id,
      name,
      pattern: `${camera.url}${path}`,
      intervalMin,
      position: { lat: 47.2, lng: 8.7, direction: 90 },
    });
  const cameraRow = (id: number): Promise<CameraRow> =>
    service.db.selectFrom('cameras').selectAll().where('webcamId', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    camera = await startCameraServer();
    service = await buildImagingService({
      options: { schedule: true, fetchLimits: { timeoutMs: 300, maxBytes: 2 * 1024 * 1024, retries: 1 } },
    });
    ({ app, storeDir } = service);
    await service.bus.consume<Image>(
      (message) => {
        captured.push(message.data);
        message.ack();
      },
      { durable: 'test-captured', filter: ImageCaptured.subject },
    );
  });

  afterAll(async () => {
    await service?.close();
    await camera?.close();
  });

  it('follows camera changes from the bus: schedules, reschedules and forgets cameras', async () => {
    await upsert(1, 'Testkamera', '/cam.jpg', 5);
    await cameraRow(1);
    await expect
      .poll(() => imagingPartsOf(app).capture.scheduler.nextRun(1)?.getUTCMinutes())
      .toSatisfy((m) => (m as number) % 5 === 0);
    await upsert(1, 'Testkamera', '/cam.jpg', 2);
    await expect.poll(() => (imagingPartsOf(app).capture.scheduler.nextRun(1)?.getUTCMinutes() ?? 1) % 2).toBe(0);
    await upsert(2, 'Weg-damit', '/cam.jpg');
    await expect.poll(() => imagingPartsOf(app).capture.scheduler.nextRun(2)).toBeTruthy();
    await service.bus.publishEvent(CameraDeleted.subject, { id: 2 });
    await expect.poll(() => imagingPartsOf(app).capture.scheduler.nextRun(2)).toBeNull();
  });

  it('captures a tick into five quality levels of increasing width and announces the image', async () => {
    const row = await cameraRow(1);
    const tick = new Date('2026-11-22T09:05:00Z');
    const result = await captureTick(imagingPartsOf(app).capture.context, row, tick);
    expect(result).toEqual({
      outcome: 'captured',
      image: { webcamId: 1, name: imageNameOf(tick), lat: 47.2, lng: 8.7, direction: 90 },
    });
    const widths = [];
    for (const quality of ['POOR', 'LOW', 'MEDIUM', 'HIGH', 'FULL'] as const) {
      widths.push(
        (await sharp(createImageStore(storeDir).path('Testkamera', imageNameOf(tick), quality)).metadata()).width,
      );
    }
    expect(widths).toEqual([480, 800, 1280, 1920, 2560]);
    await expect.poll(() => captured.map((i) => i.name)).toContain(imageNameOf(tick));
  });

  it('captures a tick only once however many replicas try', async () => {
    const row = await cameraRow(1);
    const tick = new Date('2026-11-22T09:10:00Z');
    const outcomes = await Promise.all([
      captureTick(imagingPartsOf(app).capture.context, row, tick),
      captureTick({ ...imagingPartsOf(app).capture.context, replicaId: 'other' }, row, tick),
    ]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['captured', 'skipped']);
  });

  it('redirects privately to the current picture, served as JPEG with ETag and 304, and earlier pictures by name', async () => {
    const current = await getPicture(app, '/api/Image/Get/camera/Testkamera.jpg');
    expect(current.entitlement.statusCode).toBe(302);
    expect(current.entitlement.headers['cache-control']).toBe('private, max-age=30');
    expect(current.entitlement.headers['x-image-name']).toBe('202611221010');
    expect(current.location?.pathname).toMatch(/^\/pictures\/Testkamera\/202611221010-POOR-[0-9a-f]{12}\.jpg$/);
    expect(current.picture.statusCode).toBe(200);
    expect(current.picture.headers['content-type']).toBe('image/jpeg');
    expect(current.picture.headers['x-image-name']).toBe('202611221010');
    expect((await sharp(current.picture.rawPayload).metadata()).width).toBe(480);
    const etag = current.picture.headers.etag as string;
    const again = await getPicture(app, '/api/Image/Get/camera/Testkamera.jpg', { 'if-none-match': etag });
    expect(again.picture.statusCode).toBe(304);
    const earlier = await getPicture(app, '/api/Image/Get/camera/Testkamera/202611221005.jpg');
    // A named picture's link changes less often than the current one's.
    expect(earlier.entitlement.headers['cache-control']).toBe('private, max-age=3600');
    expect(earlier.picture.statusCode).toBe(200);
    expect(earlier.picture.headers['x-image-name']).toBe('202611221005');
    expect(earlier.picture.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('counts a camera as offline when its picture froze or it stopped delivering', async () => {
    const row = await cameraRow(1);
    // The test camera always sends the same bytes: the last two captures are identical.
    expect(await offlineReason(imagingPartsOf(app).captures, row)).toBe('frozen');
    expect((await app.inject({ url: '/api/Image/Get/camera/Testkamera.jpg' })).headers['x-camera-offline']).toBe(
      'frozen',
    );
    const later = new Date(Date.now() + 3 * row.intervalMin * 60_000 + 60_000);
    expect(await offlineReason(imagingPartsOf(app).captures, row, later)).toBe('silent');
  });

  it('says in the announcement when a picture has the same bytes as the one before, fetched or pushed', async () => {
    const row = await upsert(8, 'Standbild', '/cam.jpg');
    const blue = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#3a7bd5' } })
      .jpeg()
      .toBuffer();
    const black = sharp({ create: { width: 640, height: 360, channels: 3, background: '#000000' } });
    // Two night pictures: other bytes, the same fingerprint (score 0), yet not the same picture delivered again.
    const [night, darkNight] = await Promise.all([
      black.clone().jpeg({ quality: 90 }).toBuffer(),
      black.clone().jpeg({ quality: 60 }).toBuffer(),
    ]);
    expect(night.equals(darkNight)).toBe(false);
    const fetching = (picture: Buffer) => ({ ...imagingPartsOf(app).capture.context, source: async () => picture });
    await captureTick(imagingPartsOf(app).capture.context, row, new Date('2026-11-20T08:00:00Z'), 1, blue);
    await captureTick(fetching(blue), row, new Date('2026-11-20T08:05:00Z'));
    await captureTick(imagingPartsOf(app).capture.context, row, new Date('2026-11-20T08:10:00Z'), 1, blue);
    await captureTick(imagingPartsOf(app).capture.context, row, new Date('2026-11-20T08:15:00Z'), 1, night);
    await captureTick(fetching(darkNight), row, new Date('2026-11-20T08:20:00Z'));
    const announced = () =>
      (captured as CapturedImage[])
        .filter((image) => image.webcamId === 8 && image.name.startsWith('20261120'))
        .sort((a, b) => a.name.localeCompare(b.name));
    await expect.poll(() => announced().length).toBe(5);
    expect(announced().map(({ name, frozen }) => [name, frozen])).toEqual([
      ['202611200900', false],
      ['202611200905', true],
      ['202611200910', true],
      ['202611200915', false],
      ['202611200920', false],
    ]);
    expect(announced().at(-1)?.score).toBe(0);
  });

  it('answers 404 for unknown cameras and images, 400 for names that are not camera names', async () => {
    expect((await app.inject({ url: '/api/Image/Get/camera/Nirgendwo.jpg' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/api/Image/Get/camera/Testkamera/209901010000.jpg' })).statusCode).toBe(404);
    for (const bad of ['..%2F..%2Fetc%2Fpasswd.jpg', 'Testkamera.png', '.jpg', 'a%20b.jpg']) {
      const response = await app.inject({ url: `/api/Image/Get/camera/${bad}` });
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().message).toMatch(/camera/);
    }
    expect((await app.inject({ url: '/api/Image/Get/camera/Testkamera/..%2Fx.jpg' })).statusCode).toBe(400);
  });

  it('records a failed capture when the camera hangs, sends garbage, is too large or missing', async () => {
    const cases = [
      [3, 'Haengt', '/hang', /no answer within 300 ms/],
      [4, 'Muell', '/garbage', /Not a decodable image/],
      [5, 'Riesig', '/huge', /Image too large/],
      [6, 'Fehlt', '/missing', /Camera answered 404/],
    ] as const;
    for (const [id, name, path, error] of cases) {
      await upsert(id, name, path);
      const row = await cameraRow(id);
      const result = await captureTick(imagingPartsOf(app).capture.context, row, new Date('2026-11-22T09:15:00Z'));
      expect(result.outcome, name).toBe('failed');
      expect(result.outcome === 'failed' && result.error, name).toMatch(error);
      expect((await app.inject({ url: `/api/Image/Get/camera/${name}.jpg` })).statusCode).toBe(404);
    }
  });

  it('thins images older than the retention once a day to the best of each hour, files and rows, and tells svc-webcam', async () => {
    const thinned: unknown[] = [];
    await service.bus.consume(
      (message) => {
        thinned.push(message.data);
        message.ack();
      },
      { durable: 'test-thinned', filter: ImagesThinned.subject },
    );
    const row = await cameraRow(1);
    // The test camera sends the same bytes every time: the second picture is frozen (score 0).
    const old = new Date('2026-10-01T10:00:00Z');
    const frozen = new Date('2026-10-01T10:20:00Z');
    await captureTick(imagingPartsOf(app).capture.context, row, old);
    await captureTick(imagingPartsOf(app).capture.context, row, frozen);
    const fileOf = (at: Date) => createImageStore(storeDir).path('Testkamera', imageNameOf(at), 'POOR');
    expect(existsSync(fileOf(frozen))).toBe(true);
    const before = await getPicture(app, `/api/Image/Get/camera/Testkamera/${imageNameOf(frozen)}.jpg`);
    expect(before.picture.statusCode).toBe(200);
    const frozenLink = String(before.location?.pathname);
    const now = new Date('2026-11-22T12:00:00Z');
    const tiers = { retentionDays: 14, archiveDays: 365 };
    const result = await pruneImages(imagingPartsOf(app).capture.context, tiers, now);
    expect(result).toMatchObject({ outcome: 'pruned', before: '20261108', captures: 1, days: 1 });
    expect(existsSync(fileOf(frozen))).toBe(false);
    expect(existsSync(fileOf(old))).toBe(true);
    const at = (moment: Date) => app.inject({ url: `/api/Image/Get/camera/Testkamera/${imageNameOf(moment)}.jpg` });
    // Every replica hears over the bus that the camera's pictures changed.
    await expect.poll(async () => (await at(frozen)).statusCode, { timeout: 30_000 }).toBe(404);
    expect((await getPicture(app, `/api/Image/Get/camera/Testkamera/${imageNameOf(old)}.jpg`)).picture.statusCode).toBe(
      200,
    );
    expect((await getPicture(app, '/api/Image/Get/camera/Testkamera/202611221005.jpg')).picture.statusCode).toBe(200);
    // A cache may still hold the removed picture's name: asked again, it is gone.
    expect((await app.inject({ url: frozenLink })).statusCode).toBe(404);
    await expect.poll(() => thinned).toEqual([{ webcamId: 1, day: '20261001', keep: [imageNameOf(old)] }]);
    expect(await pruneImages({ ...imagingPartsOf(app).capture.context, replicaId: 'other' }, tiers, now)).toEqual({
      outcome: 'skipped',
    });
  });

  it('refuses camera URLs that are not http(s)', async () => {
    const row = await service.upsertCamera({ id: 7, name: 'Datei', pattern: 'file:///etc/passwd' });
    const result = await captureTick(imagingPartsOf(app).capture.context, row, new Date('2026-11-22T09:20:00Z'));
    expect(result.outcome === 'failed' && result.error).toBe('Only http and https camera URLs are fetched');
  });
});
