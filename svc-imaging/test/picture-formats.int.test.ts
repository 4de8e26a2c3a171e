import { AccessChanged } from '@lakecams/contracts/messages';
import { imageNameOf } from '@lakecams/contracts';
import { generateSigningKeys, type ServiceApp } from '@lakecams/service-kit';
import { createSigner } from 'fast-jwt';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureTick } from '../src/capture/capture-tick.ts';
import type { CameraRow } from '../src/database.ts';
import { buildImagingService, imagingPartsOf, type ImagingTestService } from '../src/testing.ts';
import { getPicture } from './pictures.ts';

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
const fullUser = { authorization: `Bearer ${sign({ sub: USERS.FULL, role: [] })}` };

/** What the bytes are, by their signature: the ISO-BMFF brand `avif`, RIFF…WEBP, or JPEG's FF D8 FF. */
function signatureOf(bytes: Buffer): 'avif' | 'webp' | 'jpeg' | 'other' {
  if (bytes.subarray(4, 12).toString('latin1') === 'ftypavif') return 'avif';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'webp';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return 'other';
}

describe('pictures in AVIF and WebP for clients that take them', () => {
  let service: ImagingTestService;
  let app: ServiceApp;
  let storeDir: string;
  let imageName: string;
  let sky: Buffer;

  beforeAll(async () => {
    service = await buildImagingService({ keys });
    ({ app, storeDir } = service);
    const camera = await service.upsertCamera({ id: 1, name: 'Seeblick' });
    sky = await sharp({ create: { width: 2560, height: 1440, channels: 3, background: '#4a90d9' } })
      .composite([
        { input: { create: { width: 1280, height: 720, channels: 3, background: '#2f6f3f' } }, top: 720, left: 0 },
      ])
      .jpeg()
      .toBuffer();
    const outcome = await captureTick(
      { ...imagingPartsOf(app).capture.context, source: async () => sky },
      camera,
      new Date(),
    );
    expect(outcome.outcome).toBe('captured');
    imageName = outcome.outcome === 'captured' ? outcome.image.name : '';
    await service.bus.publishEvent(AccessChanged.subject, {
      webcamId: 1,
      permittedUserIds: [],
      configurations: Object.entries(USERS).map(([quality, userId]) => ({ userId, quality })),
      bookings: [],
    });
    // The access event reaches the delivery state asynchronously; a busy machine may take seconds.
    await vi.waitUntil(
      async () =>
        (await app.inject({ url: '/api/Image/Get/camera/Seeblick.jpg', headers: fullUser })).headers[
          'x-image-quality'
        ] === 'FULL; own configuration',
      { timeout: 30_000, interval: 25 },
    );
  });

  afterAll(async () => {
    await service?.close();
  });

  /** The entitlement URL's redirect and the picture it names, as a browser follows it. */
  const get = (path: string, headers: Record<string, string> = {}) =>
    getPicture(app, `/api/Image/Get/camera/${path}`, headers);
  const EXTENSIONS = { avif: 'avif', webp: 'webp', jpeg: 'jpg' } as const;

  it('answers AVIF, WebP or JPEG by Accept: the redirect varies on Accept, the picture name says the format', async () => {
    for (const [accept, format] of [
      [AVIF, 'avif'],
      [WEBP, 'webp'],
      ['*/*', 'jpeg'],
      ['image/jpeg', 'jpeg'],
      [undefined, 'jpeg'],
    ] as const) {
      const { entitlement, picture, location } = await get('Seeblick.jpg', accept ? { accept } : {});
      expect(entitlement.statusCode, accept).toBe(302);
      expect(String(entitlement.headers.vary).split(', '), accept).toContain('Accept');
      expect(entitlement.headers['x-image-quality']).toBe('POOR; default');
      expect(location?.pathname, accept).toMatch(
        new RegExp(`^/pictures/Seeblick/${imageName}-POOR-[0-9a-f]{12}\\.${EXTENSIONS[format]}$`),
      );
      expect(picture.statusCode, accept).toBe(200);
      expect(signatureOf(picture.rawPayload), accept).toBe(format);
      expect(picture.headers['content-type'], accept).toBe(`image/${format}`);
      // The name holds the format, so the picture itself varies on nothing and caches share it.
      expect(picture.headers.vary, accept).toBeUndefined();
      expect(picture.headers['x-image-quality']).toBe('POOR');
      // Saved from the browser under the extension of what it is.
      expect(picture.headers['content-disposition']).toBe(
        `inline; filename="Seeblick-${imageName}.${EXTENSIONS[format]}"`,
      );
    }
  });

  it('keeps every level at its width in every format; FULL stays the camera JPEG', async () => {
    const widths = { POOR: 480, LOW: 800, MEDIUM: 1280, HIGH: 1920, FULL: 2560 };
    for (const [quality, width] of Object.entries(widths)) {
      const userId = USERS[quality as keyof typeof USERS];
      const auth: Record<string, string> = userId ? { authorization: `Bearer ${sign({ sub: userId, role: [] })}` } : {};
      for (const accept of [AVIF, WEBP, 'image/jpeg']) {
        const { entitlement, picture, location } = await get(`Seeblick/${imageName}.jpg`, { ...auth, accept });
        expect(entitlement.headers['x-image-quality'], quality).toMatch(new RegExp(`^${quality};`));
        expect(picture.headers['x-image-quality'], quality).toBe(quality);
        // Above the public level (POOR here) the name is signed.
        expect(location?.search, quality).toMatch(quality === 'POOR' ? /^$/ : /^\?e=\d+&s=[\w-]{32}$/);
        const meta = await sharp(picture.rawPayload).metadata();
        expect([quality, accept, meta.width], 'width').toEqual([quality, accept, width]);
        const expected = quality === 'FULL' || accept === 'image/jpeg' ? 'jpeg' : accept === AVIF ? 'avif' : 'webp';
        expect([quality, accept, signatureOf(picture.rawPayload)]).toEqual([quality, accept, expected]);
        expect(location?.pathname.endsWith(`.${EXTENSIONS[expected]}`), `${quality} ${accept}`).toBe(true);
      }
    }
    // FULL has no AVIF or WebP copy: such a name is no picture.
    const full = await get(`Seeblick/${imageName}.jpg`, { ...fullUser, accept: 'image/jpeg' });
    const avifName = String(full.location?.pathname).replace(/\.jpg$/, '.avif');
    expect((await app.inject({ url: `${avifName}${full.location?.search}` })).statusCode).toBe(404);
  });

  it('gives each format its own name and ETag, and answers 304 only for the one the client holds', async () => {
    const avif = await get('Seeblick.jpg', { accept: AVIF });
    const webp = await get('Seeblick.jpg', { accept: WEBP });
    const jpeg = await get('Seeblick.jpg');
    const tags = [avif, webp, jpeg].map(({ picture }) => String(picture.headers.etag));
    expect(new Set(tags).size).toBe(3);
    // The ETag is the picture's file name: the name is the content.
    expect(tags[0]).toBe(`"${avif.location?.pathname.split('/').pop()}"`);
    const again = await get('Seeblick.jpg', { accept: AVIF, 'if-none-match': tags[0] as string });
    expect(again.picture.statusCode).toBe(304);
    expect(again.picture.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(again.picture.headers.vary).toBeUndefined();
    expect(String(again.entitlement.headers.vary)).toContain('Accept');
    expect((await get('Seeblick.jpg', { accept: WEBP, 'if-none-match': tags[0] as string })).picture.statusCode).toBe(
      200,
    );
    expect((await get('Seeblick.jpg', { 'if-none-match': tags[2] as string })).picture.statusCode).toBe(304);
  });

  it('sends a picture stored without AVIF and WebP copies on to its JPEG, signed links included', async () => {
    const earlier = new Date(Date.now() - 60 * 60_000);
    const camera = (await imagingPartsOf(app).cameraDirectory.byId(1)) as CameraRow;
    const outcome = await captureTick(
      { ...imagingPartsOf(app).capture.context, source: async () => sky },
      camera,
      earlier,
    );
    expect(outcome.outcome).toBe('captured');
    const name = imageNameOf(earlier);
    const dayDir = join(storeDir, 'Seeblick', name.slice(0, 8));
    // As stored before the modern formats: JPEGs only.
    for (const quality of ['POOR', 'LOW', 'MEDIUM', 'HIGH'])
      for (const extension of ['avif', 'webp']) await rm(join(dayDir, `${name}-${quality}.${extension}`));
    for (const [quality, headers] of [
      ['POOR', {}],
      ['HIGH', { authorization: `Bearer ${sign({ sub: USERS.HIGH, role: [] })}` }],
    ] as const) {
      const { picture, location, final } = await get(`Seeblick/${name}.jpg`, { ...headers, accept: AVIF });
      expect(location?.pathname, quality).toMatch(new RegExp(`-${quality}-[0-9a-f]{12}\\.avif$`));
      expect(final?.pathname, quality).toBe(String(location?.pathname).replace(/\.avif$/, '.jpg'));
      expect([quality, picture.statusCode, signatureOf(picture.rawPayload)]).toEqual([quality, 200, 'jpeg']);
      expect((await sharp(picture.rawPayload).metadata()).width).toBe(quality === 'POOR' ? 480 : 1920);
    }
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
    await imagingPartsOf(app).capture.store.pruneDaysBefore(nextDay);
    expect(await readdir(dayDir).catch(() => [])).toEqual([]);
  });
});
