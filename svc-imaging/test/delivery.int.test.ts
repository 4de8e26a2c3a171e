import { AccessChanged } from '@lakecams/contracts/messages';
import { ACCESS_COOKIE, IMPERSONATE_COOKIE, imageNameOf, POSITION_RULES } from '@lakecams/contracts';
import { ruleViolations } from '@lakecams/contracts/testing';
import { ADMIN_ROLE, generateSigningKeys, type ServiceApp } from '@lakecams/service-kit';
import { createSigner } from 'fast-jwt';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureTick } from '../src/capture/capture-tick.ts';
import type { CameraRow } from '../src/database.ts';
import { buildImagingService, imagingPartsOf, type ImagingTestService } from '../src/testing.ts';
import { getPicture } from './pictures.ts';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const VIP = '44444444-4444-4444-8444-444444444444';
const PREMIUM = '55555555-5555-4555-8555-555555555555';
const vipToken = sign({ sub: VIP, role: [] });
/** Signed in, without a configuration of its own: one of "all other users". */
const memberToken = sign({ sub: '77777777-7777-4777-8777-777777777777', role: [] });
const today = imageNameOf(new Date());
const day = (offset: number) => {
  const date = new Date(
    Date.UTC(Number(today.slice(0, 4)), Number(today.slice(4, 6)) - 1, Number(today.slice(6, 8)) + offset),
  );
  return date.toISOString().slice(0, 10);
};

describe('image delivery at the quality each caller is entitled to', () => {
  let service: ImagingTestService;
  let app: ServiceApp;

  beforeAll(async () => {
    service = await buildImagingService({ keys });
    app = service.app;
    const camera = await service.upsertCamera({ id: 1, name: 'Seesicht' });
    const picture = await sharp({ create: { width: 2560, height: 1440, channels: 3, background: '#4a90d9' } })
      .jpeg()
      .toBuffer();
    await captureTick({ ...imagingPartsOf(app).capture.context, source: async () => picture }, camera, new Date());
  });

  afterAll(async () => {
    await service?.close();
  });

  async function widthFor(headers: Record<string, string> = {}) {
    const { entitlement, picture, location } = await getPicture(app, '/api/Image/Get/camera/Seesicht.jpg', headers);
    expect(picture.statusCode).toBe(200);
    return { width: (await sharp(picture.rawPayload).metadata()).width, response: entitlement, picture, location };
  }
  const announce = (access: object) =>
    service.bus.publishEvent(AccessChanged.subject, { webcamId: 1, permittedUserIds: [], ...access });

  it('gives anonymous visitors POOR by default: a private redirect to an immutable, shareable picture', async () => {
    const { width, response, picture, location } = await widthFor();
    expect(width).toBe(480);
    expect(response.statusCode).toBe(302);
    expect(response.headers['x-image-quality']).toBe('POOR; default');
    expect(response.headers['cache-control']).toBe('private, max-age=30');
    // The public level needs no signature: one URL for everybody, cached for good.
    expect(location?.pathname).toMatch(/^\/pictures\/Seesicht\/\d{12}-POOR-[0-9a-f]{12}\.jpg$/);
    expect(location?.search).toBe('');
    expect(picture.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(picture.headers.vary).toBeUndefined();
    expect(picture.headers['set-cookie']).toBeUndefined();
    expect(picture.headers['x-image-quality']).toBe('POOR');
  });

  it('refuses a level above the public one without a valid signed link, however the name is edited', async () => {
    const { location } = await widthFor();
    const raised = String(location?.pathname).replace('-POOR-', '-FULL-');
    const unsigned = await app.inject({ url: raised });
    expect([unsigned.statusCode, unsigned.json().message]).toEqual([
      403,
      'This picture link is not signed for this level; ask /api/Image/Get/camera/Seesicht.jpg again',
    ]);
    const vip = await widthFor({ authorization: `Bearer ${sign({ sub: PREMIUM, role: ['Premium'] })}` });
    expect(vip.location?.pathname).toContain('-MEDIUM-');
    expect(vip.location?.search).toMatch(/^\?e=\d+&s=[\w-]{32}$/);
    const forged = await app.inject({ url: `${vip.location?.pathname}?e=9999999999&s=${'A'.repeat(32)}` });
    expect(forged.statusCode).toBe(403);
    // A signed link of one level does not open another.
    const other = await app.inject({ url: `${raised.replace('-FULL-', '-HIGH-')}${vip.location?.search}` });
    expect(other.statusCode).toBe(403);
    expect(vip.picture.headers['cache-control']).toMatch(/^public, max-age=\d+, immutable$/);
    expect((await app.inject({ url: '/pictures/Seesicht/nonsense.jpg' })).statusCode).toBe(404);
    const otherContent = String(location?.pathname).replace(/-POOR-[0-9a-f]{12}/, '-POOR-000000000000');
    expect((await app.inject({ url: otherContent })).statusCode).toBe(404);
  });

  it('applies the configuration for all other users, the own configuration, and a booked page', async () => {
    await announce({
      configurations: [
        { userId: null, quality: 'MEDIUM' },
        { userId: VIP, quality: 'FULL' },
      ],
      bookings: [
        { url: 'https://partner.example/see', start: day(-1), end: day(1), quality: 'HIGH' },
        { url: 'https://expired.example/', start: day(-10), end: day(-2), quality: 'FULL' },
      ],
    });
    await expect.poll(async () => (await widthFor({ authorization: `Bearer ${memberToken}` })).width).toBe(1280);
    // An anonymous visitor is none of "all other users".
    expect((await widthFor()).width).toBe(480);
    expect((await widthFor({ authorization: `Bearer ${vipToken}` })).width).toBe(2560);
    // <img> sends no header: the access token comes as the httpOnly cookie.
    const byCookie = await widthFor({ cookie: `${ACCESS_COOKIE}=${vipToken}` });
    expect(byCookie.width).toBe(2560);
    expect(byCookie.response.headers['cache-control']).toBe('private, max-age=30');
    const booked = await widthFor({ referer: 'https://partner.example/see/heute' });
    expect([booked.width, booked.response.headers['x-image-quality']]).toEqual([1920, 'HIGH; referer booking']);
    expect((await widthFor({ referer: 'https://expired.example/page' })).width).toBe(480);
  });

  it("gives a Referer cut to its origin (a partner page's <img> across origins) the origin's only booked page", async () => {
    const configurations = [
      { userId: null, quality: 'LOW' },
      { userId: VIP, quality: 'FULL' },
    ];
    const see = { url: 'https://partner.example/see', start: day(-1), end: day(1), quality: 'HIGH' };
    const byOrigin = async () => (await widthFor({ referer: 'https://partner.example/' })).response.headers;
    await announce({ configurations, bookings: [see] });
    await expect.poll(async () => (await byOrigin())['x-image-quality']).toBe('HIGH; referer booking');
    expect((await widthFor({ referer: 'https://partner.example/' })).width).toBe(1920);
    expect((await widthFor({ referer: 'https://other.example/' })).width).toBe(480);
    // A second booked page of that origin: the origin alone no longer says which; the full address does.
    await announce({
      configurations,
      bookings: [see, { ...see, url: 'https://partner.example/hafen', quality: 'FULL' }],
    });
    await expect.poll(async () => (await byOrigin())['x-image-quality']).toBe('POOR; default');
    expect((await widthFor({ referer: 'https://partner.example/hafen/heute' })).width).toBe(2560);
    expect((await widthFor({ referer: 'https://partner.example/see' })).width).toBe(1920);
  });

  it("gives an Admin acting as a user that user's quality by the impersonation cookie, and ignores anybody else's", async () => {
    const admin = sign({ sub: '66666666-6666-4666-8666-666666666666', role: [ADMIN_ROLE] });
    const premium = sign({ sub: PREMIUM, role: ['Premium'] });
    expect((await widthFor({ cookie: `${ACCESS_COOKIE}=${admin}` })).width).toBe(800);
    // <img> carries no Impersonate header: the page's session sets the cookie while the admin acts as VIP.
    expect((await widthFor({ cookie: `${ACCESS_COOKIE}=${admin}; ${IMPERSONATE_COOKIE}=${VIP}` })).width).toBe(2560);
    expect((await widthFor({ cookie: `${ACCESS_COOKIE}=${premium}; ${IMPERSONATE_COOKIE}=${VIP}` })).width).toBe(1280);
    expect((await widthFor({ cookie: `${IMPERSONATE_COOKIE}=${VIP}` })).width).toBe(480);
  });

  it('gives Premium users at least MEDIUM', async () => {
    expect((await widthFor({ authorization: `Bearer ${sign({ sub: PREMIUM, role: ['Premium'] })}` })).width).toBe(1280);
  });

  it('serves an earlier picture by its name, and the new content once an upload replaced that minute', async () => {
    const camera = (await imagingPartsOf(app).cameraDirectory.byId(1)) as CameraRow;
    const earlier = new Date(Date.now() - 20 * 60_000);
    const name = imageNameOf(earlier);
    const colour = (background: string) =>
      sharp({ create: { width: 2560, height: 1440, channels: 3, background } })
        .jpeg()
        .toBuffer();
    const red = await colour('#d94a4a');
    await captureTick({ ...imagingPartsOf(app).capture.context, source: async () => red }, camera, earlier);
    const url = `/api/Image/Get/camera/Seesicht/${name}.jpg`;
    const first = await getPicture(app, url);
    expect(first.picture.statusCode).toBe(200);
    // Asked again and again (the lookup is kept while the camera's delivery state lives).
    for (let i = 0; i < 3; i++)
      expect((await app.inject({ url: String(first.location?.pathname) })).statusCode).toBe(200);
    await captureTick(imagingPartsOf(app).capture.context, camera, earlier, 1, await colour('#3cb043'));
    // The capture tells every replica over the bus; the redirect then names the new content.
    const replaced = await vi.waitUntil(
      async () => {
        const next = await getPicture(app, url);
        return next.location?.pathname !== first.location?.pathname ? next : undefined;
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(replaced.picture.statusCode).toBe(200);
    const { data } = await sharp(replaced.picture.rawPayload)
      .extract({ left: 10, top: 10, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(data[1]).toBeGreaterThan(data[0] as number);
  });

  it('keeps separate ETags per quality, so a 304 never hands out another level', async () => {
    const anonymous = (await widthFor()).picture.headers.etag;
    const vip = (await widthFor({ authorization: `Bearer ${vipToken}` })).picture.headers.etag;
    expect(anonymous).not.toBe(vip);
    const stale = await getPicture(app, '/api/Image/Get/camera/Seesicht.jpg', {
      authorization: `Bearer ${vipToken}`,
      'if-none-match': anonymous as string,
    });
    expect(stale.picture.statusCode).toBe(200);
  });

  it('answers 304 to If-None-Match with a weak tag, a list holding the tag, or *', async () => {
    const { picture, location } = await widthFor();
    const etag = String(picture.headers.etag);
    for (const condition of [`W/${etag}`, `"x", ${etag}`, '*']) {
      const response = await app.inject({ url: String(location?.pathname), headers: { 'if-none-match': condition } });
      expect([response.statusCode, response.rawPayload.length], condition).toEqual([304, 0]);
      expect(response.headers.etag).toBe(etag);
      // POOR, what anybody gets: caches keep it for good.
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const other = await app.inject({ url: String(location?.pathname), headers: { 'if-none-match': '"x"' } });
    expect(other.statusCode).toBe(200);
  });

  const positionCases = Object.entries(POSITION_RULES).flatMap(([field, rule]) =>
    ruleViolations(field, rule).map((v) => ({ ...v, field })),
  );
  it.each(positionCases)('position dialog: $case → 400 "$message"', async ({ field, value, message }) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/Image/SetPosition/set',
      headers: { authorization: `Bearer ${sign({ sub: VIP, role: [ADMIN_ROLE] })}` },
      payload: { webcamId: 1, lat: 47.2, lng: 8.7, direction: 10, name: today, [field]: value },
    });
    expect([response.statusCode, response.json().message]).toEqual([400, message]);
  });

  it('does not take the cookie on routes that change data', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/Image/SetPosition/set',
      headers: { cookie: `${ACCESS_COOKIE}=${sign({ sub: VIP, role: [ADMIN_ROLE] })}` },
      payload: { webcamId: 1, lat: 47.2, lng: 8.7, direction: 10, name: today },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('the job dashboard', () => {
  let service: ImagingTestService;
  let app: ServiceApp;
  const adminCookie = `${ACCESS_COOKIE}=${sign({ sub: VIP, role: [ADMIN_ROLE] })}`;

  beforeAll(async () => {
    service = await buildImagingService({
      keys,
      options: { fetchLimits: { timeoutMs: 500, maxBytes: 1_000_000, retries: 0 } },
    });
    app = service.app;
    await service.upsertCamera({ id: 2, name: 'Unerreichbar', intervalMin: 10 });
  });

  afterAll(async () => {
    await service?.close();
  });

  it('is for administrators only, authenticated by the cookie', async () => {
    expect((await app.inject({ url: '/api/Jobs/dashboard' })).statusCode).toBe(401);
    expect(
      (await app.inject({ url: '/api/Jobs/state', headers: { cookie: `${ACCESS_COOKIE}=${vipToken}` } })).statusCode,
    ).toBe(403);
    const page = await app.inject({ url: '/api/Jobs/dashboard', headers: { cookie: adminCookie } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Aufnahme-Jobs');
  });

  it('retries a camera now, records each failed attempt with its error, and shows them', async () => {
    const first = await app.inject({
      method: 'POST',
      url: '/api/Jobs/retry?webcamId=2',
      headers: { cookie: adminCookie },
    });
    expect(first.json()).toMatchObject({ outcome: 'failed' });
    const second = await app.inject({
      method: 'POST',
      url: '/api/Jobs/retry?webcamId=2',
      headers: { cookie: adminCookie },
    });
    expect(second.json()).toMatchObject({ outcome: 'failed' });
    const state = (await app.inject({ url: '/api/Jobs/state', headers: { cookie: adminCookie } })).json();
    const camera = state.cameras.find((c: { webcamId: number }) => c.webcamId === 2);
    expect(camera).toMatchObject({
      name: 'Unerreichbar',
      intervalMin: 10,
      paused: false,
      lastRun: { status: 'failed', attempt: 2 },
    });
    expect(new Date(camera.nextRun).getUTCMinutes() % 10).toBe(0);
    expect(state.failures[0]).toMatchObject({ camera: 'Unerreichbar', attempt: 2 });
    expect(state.failures[0].error).toMatch(/Camera unreachable/);
    expect(
      (await app.inject({ method: 'POST', url: '/api/Jobs/retry?webcamId=99', headers: { cookie: adminCookie } }))
        .statusCode,
    ).toBe(404);
  });

  it('pauses and resumes a camera', async () => {
    expect(
      (await app.inject({ method: 'POST', url: '/api/Jobs/pause?webcamId=2', headers: { cookie: adminCookie } })).body,
    ).toBe('true');
    const paused = (await app.inject({ url: '/api/Jobs/state', headers: { cookie: adminCookie } })).json();
    expect(paused.cameras.find((c: { webcamId: number }) => c.webcamId === 2).paused).toBe(true);
    expect(
      (await app.inject({ method: 'POST', url: '/api/Jobs/resume?webcamId=2', headers: { cookie: adminCookie } })).body,
    ).toBe('true');
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/api/Jobs/pause?webcamId=2',
          headers: { cookie: `${ACCESS_COOKIE}=${vipToken}` },
        })
      ).statusCode,
    ).toBe(403);
  });
});
