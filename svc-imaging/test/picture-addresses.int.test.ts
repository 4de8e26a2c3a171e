import { AccessChanged } from '@lakecams/contracts/messages';
import { generateSigningKeys, type ServiceApp } from '@lakecams/service-kit';
import fc from 'fast-check';
import { createSigner } from 'fast-jwt';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureTick } from '../src/capture/capture-tick.ts';
import { buildImagingService, imagingPartsOf, type ImagingTestService } from '../src/testing.ts';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const VIP = '44444444-4444-4444-8444-444444444444';
const vip = { authorization: `Bearer ${sign({ sub: VIP, role: [] })}` };
const MOMENT = '202611200930';

/** What inject sends for a URL: the WHATWG form, as any HTTP client would put it on the wire. */
const onTheWire = (url: string) => {
  const parsed = new URL(url, 'http://portal.invalid');
  return `${parsed.pathname}${parsed.search}`;
};

/** Other spellings of the same URL, as a client bypassing a cache would write them. */
function respellings(url: string): fc.Arbitrary<string> {
  const [path = '', query] = url.split('?') as [string, string | undefined];
  const percentEscape = (char: string, upper: boolean) => {
    const hex = char.charCodeAt(0).toString(16).padStart(2, '0');
    return `%${upper ? hex.toUpperCase() : hex}`;
  };
  // One character of the path (after /pictures/ or /api/…) written as a percent escape.
  const escaped = fc
    .tuple(fc.integer({ min: 1, max: path.length - 1 }), fc.boolean())
    .filter(([at]) => path[at] !== '/')
    .map(
      ([at, upper]) =>
        `${path.slice(0, at)}${percentEscape(path[at] as string, upper)}${path.slice(at + 1)}${query ? `?${query}` : ''}`,
    );
  // A query parameter more, before or after the others.
  const extra = fc
    .tuple(fc.stringMatching(/^[a-z]{1,6}$/), fc.stringMatching(/^[0-9a-z]{0,6}$/), fc.boolean())
    .map(([name, value, first]) => {
      const parameter = `${name}=${value}`;
      if (!query) return `${path}?${parameter}`;
      return first ? `${path}?${parameter}&${query}` : `${path}?${query}&${parameter}`;
    });
  // Every number in the URL written otherwise: leading zeros, a decimal point, an exponent, hexadecimal.
  const numbers = fc
    .constantFrom<(digits: string) => string>(
      (d) => `0${d}`,
      (d) => `00${d}`,
      (d) => `${d}.0`,
      (d) => `${d}e0`,
      (d) => `0x${BigInt(d).toString(16)}`,
      (d) => `+${d}`,
    )
    .chain((respell) =>
      fc.integer({ min: 0, max: (url.match(/\d+/g) ?? []).length - 1 }).map((which) => {
        let index = -1;
        return url.replace(/\d+/g, (digits) => (++index === which ? respell(digits) : digits));
      }),
    );
  const trailing = fc.constantFrom('?', '&', '#').map((mark) => (mark === '&' && !query ? url : `${url}${mark}`));
  return fc.oneof(escaped, extra, numbers, trailing).filter((spelling) => onTheWire(spelling) !== url);
}

describe('one address per picture, tile and clip', () => {
  let service: ImagingTestService;
  let app: ServiceApp;
  let publicPoor: string;
  let signedFull: string;

  beforeAll(async () => {
    service = await buildImagingService({ keys });
    app = service.app;
    const camera = await service.upsertCamera({ id: 3, name: 'Seesicht' });
    const picture = await sharp({ create: { width: 2560, height: 1440, channels: 3, background: '#4a90d9' } })
      .jpeg()
      .toBuffer();
    const at = new Date(Date.UTC(2026, 10, 20, 8, 30));
    await captureTick({ ...imagingPartsOf(app).capture.context, source: async () => picture }, camera, at);
    await service.bus.publishEvent(AccessChanged.subject, {
      webcamId: 3,
      permittedUserIds: [],
      configurations: [
        { userId: null, quality: 'LOW' },
        { userId: VIP, quality: 'FULL' },
      ],
      bookings: [],
    });
    const entitlement = `/api/Image/Get/camera/Seesicht/${MOMENT}.jpg`;
    signedFull = await vi.waitUntil(
      async () => {
        const location = String((await app.inject({ url: entitlement, headers: vip })).headers.location);
        return location.includes('-FULL-') ? location : undefined;
      },
      { timeout: 30_000, interval: 25 },
    );
    publicPoor = String((await app.inject({ url: entitlement })).headers.location);
  });

  afterAll(async () => {
    await service?.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers });
  const tile = (rest: string) => `/api/Image/Zoom/camera/Seesicht/${MOMENT}${rest}`;

  it('answers the canonical addresses', async () => {
    expect(signedFull).toMatch(/-FULL-.*\?e=\d+&s=[\w-]{32}$/);
    for (const url of [publicPoor, signedFull, tile('.dzi?level=POOR'), tile('_files/0/0_0.jpg?level=POOR')])
      expect([url, (await get(url)).statusCode]).toEqual([url, 200]);
  });

  it('refuses the spellings that once opened a signed picture, a public one and a tile', async () => {
    const [path, query] = signedFull.split('?') as [string, string];
    const expires = Number(/e=(\d+)/.exec(query)?.[1]);
    const signature = /s=([\w-]+)/.exec(query)?.[1];
    const spellings = [
      `${path}?e=${expires}.0&s=${signature}`,
      `${path}?e=0x${expires.toString(16)}&s=${signature}`,
      `${path}?e=0${expires}&s=${signature}`,
      `${path}?s=${signature}&e=${expires}`,
      `${path.replace('/Seesicht/', '/%53eesicht/')}?${query}`,
      `${path.replace('/Seesicht/', '/Seesi%63ht/')}?${query}`,
      `${path.replace(/\.jpg$/, '%2ejpg')}?${query}`,
      `${path.replace(/\.jpg$/, '%2Ejpg')}?${query}`,
      `${signedFull}&x=1`,
      `${publicPoor}?x=1`,
      `${publicPoor}?e=${expires}&s=${signature}`,
      `${publicPoor.replace(/\.jpg$/, '%2ejpg')}`,
      tile('_files/0/00_0.jpg?level=POOR'),
      tile('_files/00/0_0.jpg?level=POOR'),
      tile('_files/0/0_00.jpg?level=POOR'),
      tile('_files/0/0_0.jpg?level=POOR&x=1'),
      tile('.dzi?level=POOR&level=POOR'),
      tile('.dzi?x=1&level=POOR'),
      `/api/Image/Zoom/camera/%53eesicht/${MOMENT}.dzi?level=POOR`,
    ];
    for (const url of spellings) {
      const answer = await get(url);
      // A parameter given twice is not even a valid query (400); every other spelling names no picture (404).
      expect([url, answer.statusCode]).toEqual([url, url.includes('level=POOR&level=POOR') ? 400 : 404]);
      expect(answer.json()).toMatchObject({ statusCode: answer.statusCode, message: expect.any(String) });
    }
  });

  it('answers no other spelling of a picture, tile or descriptor (random ones; the seed is printed on failure)', async () => {
    const canonical = [
      publicPoor,
      signedFull,
      tile('.dzi?level=POOR'),
      tile('_files/0/0_0.jpg?level=POOR'),
      tile('_files/9/1_0.jpg?level=POOR'),
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...canonical).chain((url) => respellings(url).map((spelling) => ({ url, spelling }))),
        async ({ spelling }) => {
          // Refused as another address (404), a query no route takes (400) or a signature that no longer fits (403).
          const { statusCode } = await get(spelling);
          expect([spelling, [400, 403, 404].includes(statusCode)]).toEqual([spelling, true]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('refuses another spelling of a day clip', async () => {
    const clip = '/api/Image/Timelapse/camera/Seesicht/2026-11-20.mp4';
    for (const url of [`${clip}?x=1`, clip.replace('/Seesicht/', '/%53eesicht/'), clip.replace('.mp4', '%2emp4')])
      expect([url, (await get(url)).statusCode]).toEqual([url, 404]);
  });
});
