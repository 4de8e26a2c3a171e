import { typedBus } from '@lakecams/bus';
import { AccessChanged, PageOwned } from '@lakecams/contracts/messages';
import { imageNameOf } from '@lakecams/contracts';
import { ADMIN_ROLE, generateSigningKeys, type ServiceApp } from '@lakecams/service-kit';
import { createSigner } from 'fast-jwt';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureTick } from '../src/capture/capture-tick.ts';
import { signEmbedPass } from '../src/delivery/embed-pass.ts';
import { buildImagingService, imagingPartsOf, type ImagingTestService } from '../src/testing.ts';
import { getPicture } from './pictures.ts';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const SECRET = 'embed-test-secret';
const OWNER = '66666666-6666-4666-8666-666666666666';
const admin = { authorization: `Bearer ${sign({ sub: '11111111-1111-4111-8111-111111111111', role: [ADMIN_ROLE] })}` };
const owner = { authorization: `Bearer ${sign({ sub: OWNER, role: ['Referer'] })}` };
const stranger = { authorization: `Bearer ${sign({ sub: '33333333-3333-4333-8333-333333333333', role: [] })}` };
const PAGE = 'https://partner.example/wetter';
/** What a framed player's requests name as `Referer`: the portal's own frame. */
const FRAME = { referer: 'https://portal.example/api/Image/Embed/camera/Seeblick' };
const today = imageNameOf(new Date());
const isoToday = `${today.slice(0, 4)}-${today.slice(4, 6)}-${today.slice(6, 8)}`;

describe('the embedded player: its frame, its beacon and the views a booked page counts', () => {
  let service: ImagingTestService;
  let app: ServiceApp;

  beforeAll(async () => {
    service = await buildImagingService({ keys, options: { pictureLinks: { secret: SECRET } } });
    app = service.app;
    // svc-referer's answer: the owner has the partner page, nobody else has any.
    await typedBus(service.bus).respond(PageOwned, ({ userId, url }) => userId === OWNER && url === PAGE);
    const camera = await service.upsertCamera({ id: 7, name: 'Seeblick' });
    const picture = await sharp({ create: { width: 2560, height: 1440, channels: 3, background: '#3a7bd5' } })
      .jpeg()
      .toBuffer();
    await captureTick({ ...imagingPartsOf(app).capture.context, source: async () => picture }, camera, new Date());
    await service.bus.publishEvent(AccessChanged.subject, {
      webcamId: 7,
      permittedUserIds: [],
      configurations: [],
      bookings: [{ url: PAGE, start: isoToday, end: isoToday, quality: 'HIGH' }],
    });
    // The booking reaches delivery as an event.
    const deadline = Date.now() + 30_000;
    while ((await beacon({ referer: PAGE })).json().quality !== 'HIGH') {
      if (Date.now() > deadline) throw new Error('the booking did not reach image delivery');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  afterAll(async () => {
    await service?.close();
  });

  const beacon = (headers: Record<string, string>, query = '') =>
    app.inject({ url: `/api/Image/EmbedView/camera/Seeblick${query}`, headers });
  const views = async (headers: Record<string, string> = admin, page = PAGE) =>
    app.inject({ url: `/api/Image/EmbedViews?camera=Seeblick&page=${encodeURIComponent(page)}`, headers });
  const viewsToday = async () =>
    ((await views()).json().days as { day: string; views: number }[]).find((d) => d.day === isoToday)?.views ?? 0;
  const widthOf = async (url: string, headers: Record<string, string>) => {
    const { picture, entitlement } = await getPicture(app, url, headers);
    expect(picture.statusCode).toBe(200);
    return {
      width: (await sharp(picture.rawPayload).metadata()).width,
      quality: entitlement.headers['x-image-quality'],
    };
  };

  it("tells any page its own level, readable across origins, and counts a booked page's views per day without a cookie", async () => {
    const before = await viewsToday();
    const booked = await beacon({ referer: `${PAGE}/heute` });
    expect(booked.statusCode).toBe(200);
    expect(booked.json()).toEqual({
      camera: 'Seeblick',
      quality: 'HIGH',
      booked: true,
      cameraPage: '/webcam/Seeblick',
      pass: expect.stringMatching(/^[\w-]+\.\d+\.[\w-]{43}$/),
    });
    // The pass names the page as the beacon saw it, for the clip a <video> asks with the page's origin alone.
    expect((await widthOf(`/api/Image/Get/camera/Seeblick.jpg?pass=${booked.json().pass}`, FRAME)).width).toBe(1920);
    expect(booked.headers['access-control-allow-origin']).toBe('*');
    expect(booked.headers['access-control-allow-credentials']).toBeUndefined();
    expect(booked.headers['cache-control']).toBe('no-store');
    expect(booked.headers['set-cookie']).toBeUndefined();
    // The origin alone, as a browser sends it by default: the origin's only booked page.
    expect((await beacon({ referer: 'https://partner.example/' })).json().booked).toBe(true);
    expect(await viewsToday()).toBe(before + 2);

    const other = await beacon({ referer: 'https://elsewhere.example/' });
    expect(other.json()).toMatchObject({ quality: 'POOR', booked: false });
    expect(other.json().pass).toBeUndefined();
    expect((await beacon({})).json()).toMatchObject({ quality: 'POOR', booked: false });
    expect(await viewsToday()).toBe(before + 2);
    expect((await app.inject({ url: '/api/Image/EmbedView/camera/Nirgends' })).statusCode).toBe(404);
  });

  it("frames the player with the framing page signed into a pass, which gives the frame's pictures that page's level", async () => {
    const frame = await app.inject({
      url: '/api/Image/Embed/camera/Seeblick?controls=1&lang=en',
      headers: { referer: PAGE },
    });
    expect(frame.statusCode).toBe(200);
    expect(frame.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(frame.headers['cache-control']).toBe('private, no-cache');
    expect(frame.body).toContain('<script type="module" src="/embed/v1.js"></script>');
    const pass = /pass="([^"]+)"/.exec(frame.body)?.[1];
    expect(pass).toBeDefined();
    expect(frame.body).toContain('lang="en"');

    const framed = await widthOf(`/api/Image/Get/camera/Seeblick.jpg?pass=${pass}`, FRAME);
    expect(framed).toEqual({ width: 1920, quality: 'HIGH; referer booking' });
    const framedBeacon = await beacon(FRAME, `?pass=${pass}`);
    expect(framedBeacon.json()).toMatchObject({ quality: 'HIGH', booked: true });
    // Without the pass the frame is the portal's own page: the public level.
    expect(await widthOf('/api/Image/Get/camera/Seeblick.jpg', FRAME)).toEqual({
      width: 480,
      quality: 'POOR; default',
    });
    const name = today;
    const earlier = await app.inject({
      url: `/api/Image/Get/camera/Seeblick/${name}.jpg?pass=${pass}`,
      headers: FRAME,
    });
    expect(earlier.headers['x-image-quality']).toBe('HIGH; referer booking');

    // A pass cannot be made, edited or kept past its day.
    const [encoded, expires, mac] = String(pass).split('.');
    const otherPage = Buffer.from('https://partner.example/other').toString('base64url');
    const forged = [
      `${otherPage}.${expires}.${mac}`,
      `${encoded}.${Number(expires) + 60}.${mac}`,
      signEmbedPass('guessed', PAGE),
    ];
    for (const bad of forged)
      expect((await widthOf(`/api/Image/Get/camera/Seeblick.jpg?pass=${bad}`, FRAME)).width).toBe(480);
    const stale = signEmbedPass(SECRET, PAGE, Date.now() - 2 * 86_400_000);
    expect((await widthOf(`/api/Image/Get/camera/Seeblick.jpg?pass=${stale}`, FRAME)).width).toBe(480);

    // A frame on a page without a booking: no pass is worth more than the public level.
    const unbooked = await app.inject({
      url: '/api/Image/Embed/camera/Seeblick',
      headers: { referer: 'https://elsewhere.example/' },
    });
    const otherPass = /pass="([^"]+)"/.exec(unbooked.body)?.[1];
    expect((await widthOf(`/api/Image/Get/camera/Seeblick.jpg?pass=${otherPass}`, FRAME)).width).toBe(480);
    expect((await app.inject({ url: '/api/Image/Embed/camera/Nirgends' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/api/Image/Embed/camera/Seeblick?controls=2' })).statusCode).toBe(400);
  });

  it("previews the player as a page gets it only for the page's owner or an Admin", async () => {
    const preview = (headers: Record<string, string>, page = PAGE) =>
      app.inject({ url: `/api/Image/Embed/camera/Seeblick?page=${encodeURIComponent(page)}`, headers });
    expect((await preview({})).statusCode).toBe(401);
    expect((await preview(stranger)).statusCode).toBe(403);
    expect((await preview(owner, 'https://elsewhere.example/')).statusCode).toBe(403);
    for (const who of [owner, admin]) {
      const answer = await preview(who);
      expect(answer.statusCode).toBe(200);
      const pass = /pass="([^"]+)"/.exec(answer.body)?.[1];
      expect((await widthOf(`/api/Image/Get/camera/Seeblick.jpg?pass=${pass}`, FRAME)).width).toBe(1920);
    }
  });

  it("shows a page's views only to its owner or an Admin", async () => {
    expect((await views({})).statusCode).toBe(401);
    expect((await views(stranger)).statusCode).toBe(403);
    const own = await views(owner);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ camera: 'Seeblick', page: PAGE });
    expect(own.json().days[0]).toEqual({ day: isoToday, views: expect.any(Number) });
    expect((await views(admin)).json()).toEqual(own.json());
  });
});
