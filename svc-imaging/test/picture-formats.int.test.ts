import { createInProcessBus } from '@lakecams/bus';
import { SUBJECTS } from '@lakecams/contracts';
import { buildServiceApp, createLogger, generateSigningKeys, type ServiceApp } from '@lakecams/service-kit';
import { createTestDatabase } from '@lakecams/service-kit/testing';
import { createSigner } from 'fast-jwt';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { imagingService } from '../src/app.ts';
import { captureTick } from '../src/capture.ts';
import type { CameraRow } from '../src/database.ts';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const USERS = {
  LOW: '71111111-1111-4111-8111-111111111111',
  MEDIUM: '72222222-2222-4222-8222-222222222222',
  HIGH: '73333333-3333-4333-8333-333333333333',
  FULL: '74444444-4444-4444-8444-444444444444',
} as const;
const AVIF = 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8';
const WEBP = 'image/webp,*/*';

/** What the bytes are, by their signature: the ISO-BMFF brand `avif`, RIFF…WEBP, or JPEG's FF D8 FF. */
function signatureOf(bytes: Buffer): 'avif' | 'webp' | 'jpeg' | 'other' {
  if (bytes.subarray(4, 12).toString('latin1') === 'ftypavif') return 'avif';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'webp';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return 'other';
}

describe('pictures in AVIF and WebP for clients that take them', () => {
  const bus = createInProcessBus();
  let app: ServiceApp;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let storeDir: string;
  let imageName: string;

  beforeAll(async () => {
    database = await createTestDatabase('imaging');
    storeDir = await mkdtemp(join(tmpdir(), 'lakecams-formats-'));
    app = await buildServiceApp(imagingService, {
      bus,
      logger: createLogger('silent'),
      databaseUrl: database.url,
      jwtPublicKey: keys.publicKey,
      options: { storeDir, schedule: false },
    });
    await bus.publishEvent(SUBJECTS.cameraUpserted, {
      id: 1,
      name: 'Seeblick',
      pattern: 'http://127.0.0.1:9/x.jpg',
      intervalMin: 5,
      distance: 5,
      angle: 60,
      webcamType: 'STATIC',
    });
    // The camera event reaches the directory asynchronously; a busy machine may take seconds.
    const camera: CameraRow | undefined = await vi.waitUntil(() => app.cameraDirectory.byId(1), {
      timeout: 30_000,
      interval: 20,
    });
    const sky = await sharp({ create: { width: 2560, height: 1440, channels: 3, background: '#4a90d9' } })
      .composite([
        { input: { create: { width: 1280, height: 720, channels: 3, background: '#2f6f3f' } }, top: 720, left: 0 },
      ])
      .jpeg()
      .toBuffer();
    const outcome = await captureTick(
      { ...app.captureContext, source: async () => sky },
      camera as CameraRow,
      new Date(),
    );
    expect(outcome.outcome).toBe('captured');
    imageName = outcome.outcome === 'captured' ? outcome.image.name : '';
    await bus.publishEvent(SUBJECTS.accessChanged, {
      webcamId: 1,
      permittedUserIds: [],
      configurations: Object.entries(USERS).map(([quality, userId]) => ({ userId, quality })),
      bookings: [],
    });
    const full = { authorization: `Bearer ${sign({ sub: USERS.FULL, role: [] })}` };
    const qualityOf = async () =>
      (await app.inject({ url: '/api/Image/Get/camera/Seeblick.jpg', headers: full })).headers['x-image-quality'];
    for (let tries = 0; (await qualityOf()) !== 'FULL; own configuration' && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  });

  afterAll(async () => {
    await app?.close();
    await bus.close();
    await database?.drop();
    await rm(storeDir, { recursive: true, force: true });
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    app.inject({ url: `/api/Image/Get/camera/${path}`, headers });

  it('answers AVIF, WebP or JPEG by Accept, with the matching Content-Type and Vary: Accept', async () => {
    for (const [accept, format] of [
      [AVIF, 'avif'],
      [WEBP, 'webp'],
      ['*/*', 'jpeg'],
      ['image/jpeg', 'jpeg'],
      [undefined, 'jpeg'],
    ] as const) {
      const answer = await get('Seeblick.jpg', accept ? { accept } : {});
      expect(answer.statusCode, accept).toBe(200);
      expect(signatureOf(answer.rawPayload), accept).toBe(format);
      expect(answer.headers['content-type'], accept).toBe(`image/${format}`);
      expect(String(answer.headers.vary).split(', '), accept).toContain('Accept');
      expect(answer.headers['x-image-quality']).toBe('POOR; default');
      // Saved from the browser under the extension of what it is.
      const extension = format === 'jpeg' ? 'jpg' : format;
      expect(answer.headers['content-disposition']).toBe(`inline; filename="Seeblick-${imageName}.${extension}"`);
    }
  });

  it('keeps every level at its width in every format; FULL stays the camera JPEG', async () => {
    const widths = { POOR: 480, LOW: 800, MEDIUM: 1280, HIGH: 1920, FULL: 2560 };
    for (const [quality, width] of Object.entries(widths)) {
      const userId = USERS[quality as keyof typeof USERS];
      const auth: Record<string, string> = userId ? { authorization: `Bearer ${sign({ sub: userId, role: [] })}` } : {};
      for (const accept of [AVIF, WEBP, 'image/jpeg']) {
        const answer = await get(`Seeblick/${imageName}.jpg`, { ...auth, accept });
        expect(answer.headers['x-image-quality'], quality).toMatch(new RegExp(`^${quality};`));
        const meta = await sharp(answer.rawPayload).metadata();
        expect([quality, accept, meta.width], 'width').toEqual([quality, accept, width]);
        const expected = quality === 'FULL' || accept === 'image/jpeg' ? 'jpeg' : accept === AVIF ? 'avif' : 'webp';
        expect([quality, accept, signatureOf(answer.rawPayload)]).toEqual([quality, accept, expected]);
      }
    }
  });

  it('gives each format its own ETag, and answers 304 only for the one the client holds', async () => {
    const avif = await get('Seeblick.jpg', { accept: AVIF });
    const webp = await get('Seeblick.jpg', { accept: WEBP });
    const jpeg = await get('Seeblick.jpg');
    const tags = [avif, webp, jpeg].map((answer) => String(answer.headers.etag));
    expect(new Set(tags).size).toBe(3);
    const again = await get('Seeblick.jpg', { accept: AVIF, 'if-none-match': tags[0] as string });
    expect(again.statusCode).toBe(304);
    expect(String(again.headers.vary)).toContain('Accept');
    expect((await get('Seeblick.jpg', { accept: WEBP, 'if-none-match': tags[0] as string })).statusCode).toBe(200);
    expect((await get('Seeblick.jpg', { 'if-none-match': tags[2] as string })).statusCode).toBe(304);
  });

  it('stores the AVIF and WebP copies beside the JPEGs, and prunes them with the day', async () => {
    const dayDir = join(storeDir, 'Seeblick', imageName.slice(0, 8));
    const files = await readdir(dayDir);
    for (const quality of ['POOR', 'LOW', 'MEDIUM', 'HIGH']) {
      for (const extension of ['jpg', 'avif', 'webp']) expect(files).toContain(`${imageName}-${quality}.${extension}`);
    }
    expect(files).toContain(`${imageName}-FULL.jpg`);
    expect(files).not.toContain(`${imageName}-FULL.avif`);
    const nextDay = String(Number(imageName.slice(0, 8)) + 1);
    await app.imageStore.pruneDaysBefore(nextDay);
    expect(await readdir(dayDir).catch(() => [])).toEqual([]);
  });
});
