import { AccessChanged } from '@lakecams/contracts/messages';
import { ACCESS_COOKIE, imageNameOf } from '@lakecams/contracts';
import { generateSigningKeys, type ServiceApp } from '@lakecams/service-kit';
import { createSigner } from 'fast-jwt';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureTick } from '../src/capture/capture-tick.ts';
import { pruneImages } from '../src/archive/prune.ts';
import { buildImagingService, imagingPartsOf, type ImagingTestService } from '../src/testing.ts';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const VIP = '77777777-7777-4777-8777-777777777777';
const vip = { authorization: `Bearer ${sign({ sub: VIP, role: [] })}` };
const premium = {
  cookie: `${ACCESS_COOKIE}=${sign({ sub: '88888888-8888-4888-8888-888888888888', role: ['Premium'] })}`,
};
const moment = imageNameOf(new Date(Date.UTC(2026, 10, 20, 9, 30)));
const zoom = (path: string) => `/api/Image/Zoom/camera/Ufer/${path}`;

describe('deep-zoom tiles at the level the caller is entitled to', () => {
  let service: ImagingTestService;
  let app: ServiceApp;
  let zoomTilesDir: string;

  beforeAll(async () => {
    service = await buildImagingService({ keys });
    app = service.app;
    // The tiles' default folder, in the store folder the service was given.
    zoomTilesDir = join(service.storeDir, '.zoom');
    const row = await service.upsertCamera({ id: 7, name: 'Ufer' });
    const picture = await sharp({ create: { width: 2560, height: 1440, channels: 3, background: '#3a7bd5' } })
      .jpeg()
      .toBuffer();
    const at = new Date(Date.UTC(2026, 10, 20, 9, 30));
    await captureTick({ ...imagingPartsOf(app).capture.context, source: async () => picture }, row, at);
    await service.bus.publishEvent(AccessChanged.subject, {
      webcamId: 7,
      permittedUserIds: [],
      configurations: [{ userId: VIP, quality: 'HIGH' }],
      bookings: [],
    });
    // The access event reaches the delivery state asynchronously.
    await vi.waitUntil(
      async () => (await app.inject({ url: zoom(`${moment}.dzi?level=HIGH`), headers: vip })).statusCode === 200,
      { timeout: 30_000, interval: 25 },
    );
  });

  afterAll(async () => {
    await service?.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers });
  const sizeOf = (xml: string) => ({
    width: Number(/Width="(\d+)"/.exec(xml)?.[1]),
    height: Number(/Height="(\d+)"/.exec(xml)?.[1]),
  });

  it('gives anonymous visitors the POOR level, described at its width, and its tiles', async () => {
    const descriptor = await get(zoom(`${moment}.dzi?level=POOR`));
    expect(descriptor.statusCode).toBe(200);
    expect(descriptor.headers['content-type']).toMatch(/^application\/xml/);
    expect(descriptor.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(sizeOf(descriptor.body)).toEqual({ width: 480, height: 270 });
    expect(descriptor.body).toContain('Format="jpg"');
    // 480 px: level 9 holds the picture at full size, in two columns of 254 px tiles plus 1 px overlap.
    const tile = await get(zoom(`${moment}_files/9/1_0.jpg?level=POOR`));
    expect(tile.statusCode).toBe(200);
    expect(tile.headers['content-type']).toBe('image/jpeg');
    const { width, height } = await sharp(tile.rawPayload).metadata();
    expect([width, height]).toEqual([480 - 254 + 1, 254 + 1]);
  });

  it('refuses anonymous visitors a higher level with 401, tiles included', async () => {
    for (const path of [`${moment}.dzi?level=LOW`, `${moment}_files/9/0_0.jpg?level=HIGH`]) {
      const response = await get(zoom(path));
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    }
  });

  it("gives a user its configured level and refuses a higher one with 403; Premium gets MEDIUM's", async () => {
    const high = await get(zoom(`${moment}.dzi?level=HIGH`), vip);
    expect(high.statusCode).toBe(200);
    expect(sizeOf(high.body)).toEqual({ width: 1920, height: 1080 });
    expect(high.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect((await get(zoom(`${moment}_files/11/7_4.jpg?level=HIGH`), vip)).statusCode).toBe(200);
    // A lower level stays open to it.
    expect((await get(zoom(`${moment}.dzi?level=LOW`), vip)).statusCode).toBe(200);
    const full = await get(zoom(`${moment}.dzi?level=FULL`), vip);
    expect([full.statusCode, full.json().statusCode]).toEqual([403, 403]);
    expect((await get(zoom(`${moment}_files/12/0_0.jpg?level=FULL`), vip)).statusCode).toBe(403);
    const medium = await get(zoom(`${moment}.dzi?level=MEDIUM`), premium);
    expect(sizeOf(medium.body).width).toBe(1280);
    expect((await get(zoom(`${moment}.dzi?level=HIGH`), premium)).statusCode).toBe(403);
  });

  it('makes the tiles of a capture and level once, however many ask at the same time', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => get(zoom(`${moment}_files/10/${i % 3}_0.jpg?level=MEDIUM`), premium)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const day = await readdir(join(zoomTilesDir, 'Ufer', moment.slice(0, 8)));
    expect(day.filter((folder) => folder.startsWith(`${moment}-MEDIUM-`))).toHaveLength(1);
    expect(day.filter((folder) => folder.endsWith('.tmp'))).toEqual([]);
  });

  it('answers bad input with 4xx: malformed names, unknown camera or moment, tiles out of range', async () => {
    const cases: [string, number][] = [
      [zoom(`${moment}.dzi`), 400],
      [zoom(`${moment}.dzi?level=BEST`), 400],
      [zoom(`${moment}.xml?level=POOR`), 400],
      [zoom('2026112.dzi?level=POOR'), 400],
      [`/api/Image/Zoom/camera/..%2Fetc/${moment}.dzi?level=POOR`, 400],
      [`/api/Image/Zoom/camera/Nirgends/${moment}.dzi?level=POOR`, 404],
      [zoom('202611200935.dzi?level=POOR'), 404],
      [zoom(`${moment}_files/9/0_0.png?level=POOR`), 400],
      [zoom(`${moment}_files/x/0_0.jpg?level=POOR`), 400],
      [zoom(`${moment}/9/0_0.jpg?level=POOR`), 400],
      [zoom(`${moment}_files/10/0_0.jpg?level=POOR`), 404],
      [zoom(`${moment}_files/9/2_0.jpg?level=POOR`), 404],
      [zoom(`${moment}_files/9/0_99999.jpg?level=POOR`), 400],
      [zoom(`${moment}_files/99/0_0.jpg?level=POOR`), 404],
    ];
    for (const [url, status] of cases) {
      const response = await get(url);
      expect([url, response.statusCode]).toEqual([url, status]);
      expect(response.json()).toMatchObject({ statusCode: status, message: expect.any(String) });
    }
  });

  it('prunes the tiles of days past the retention; a picture the archive keeps gets them again on request', async () => {
    await get(zoom(`${moment}.dzi?level=POOR`));
    expect(await readdir(join(zoomTilesDir, 'Ufer'))).toEqual([moment.slice(0, 8)]);
    const tiers = { retentionDays: 14, archiveDays: 365 };
    const result = await pruneImages(imagingPartsOf(app).capture.context, tiers, new Date(Date.UTC(2026, 11, 20)));
    expect(result.outcome).toBe('pruned');
    expect(await readdir(join(zoomTilesDir, 'Ufer'))).toEqual([]);
    // The day's only picture is its best: the archive keeps it, with its tiles made anew.
    expect((await get(zoom(`${moment}.dzi?level=POOR`))).statusCode).toBe(200);
  });
});
