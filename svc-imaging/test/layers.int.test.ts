import { UserChanged } from '@lakecams/contracts/messages';
import { imageNameOf } from '@lakecams/contracts';
import { ADMIN_ROLE, generateSigningKeys, type ServiceApp } from '@lakecams/service-kit';
import { buildRefererService } from '@lakecams/svc-referer/testing';
import { buildWebcamService } from '@lakecams/svc-webcam/testing';
import { createSigner } from 'fast-jwt';
import { createServer } from 'node:http';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureTick } from '../src/capture/capture-tick.ts';
import type { CameraRow } from '../src/database.ts';
import { buildImagingService, imagingPartsOf, type ImagingTestService } from '../src/testing.ts';
import { getPicture } from './pictures.ts';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const RITA = '22222222-2222-4222-8222-222222222222';
const admin = { authorization: `Bearer ${sign({ sub: '11111111-1111-4111-8111-111111111111', role: [ADMIN_ROLE] })}` };
const rita = { authorization: `Bearer ${sign({ sub: RITA, role: ['Referer'] })}` };
const PAGE = 'https://partner.example/lake';
const FULL = { width: 1920, height: 1080 };

type Rgb = [number, number, number];
const solid = (color: string, width = FULL.width, height = FULL.height) =>
  sharp({ create: { width, height, channels: 4, background: color } })
    .png()
    .toBuffer();
const jpeg = (color: string) =>
  sharp({ create: { ...FULL, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
async function pixel(image: Buffer, x: number, y: number): Promise<Rgb> {
  const { data } = await sharp(image)
    .extract({ left: x, top: y, width: 1, height: 1 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return [data[0] as number, data[1] as number, data[2] as number];
}
/** A PNG of this size by its header, with one row of data: sharp reads the size without decoding. */
function pngHeaderOf(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const framing = Buffer.alloc(8);
    framing.writeUInt32BE(data.length, 0);
    framing.writeUInt32BE(crc32(body), 4);
    return Buffer.concat([framing.subarray(0, 4), body, framing.subarray(4)]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2], 8); // 8-bit RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const row = deflateSync(Buffer.alloc(1 + width * 3));
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', row), chunk('IEND', Buffer.alloc(0))]);
}
const near = (actual: Rgb, expected: Rgb) => actual.every((v, i) => Math.abs(v - (expected[i] as number)) <= 24);
const BLUE: Rgb = [0, 0, 255];

describe('layers drawn into booked pages’ images (svc-imaging with svc-referer and svc-webcam)', () => {
  let service: ImagingTestService;
  const others: { close(): Promise<void> }[] = [];
  let webcam: ServiceApp;
  let referer: ServiceApp;
  let imaging: ServiceApp;
  let camera: CameraRow;
  let blue: Buffer;

  beforeAll(async () => {
    // svc-imaging on the test bus, svc-webcam and svc-referer beside it on the same bus with the same keys.
    service = await buildImagingService({ keys });
    imaging = service.app;
    const webcamService = await buildWebcamService({ bus: service.bus, keys });
    others.push(webcamService);
    webcam = webcamService.app;
    const refererService = await buildRefererService({ bus: service.bus, keys });
    others.push(refererService);
    referer = refererService.app;

    await service.bus.publishEvent(UserChanged.subject, {
      id: RITA,
      userName: 'rita_referer',
      email: 'rita@example.org',
      emailConfirmed: true,
    });
    await until(
      async () => (await referer.inject({ url: '/api/Referer/GetUsers/users', headers: admin })).json().length === 1,
    );
    await referer.inject({
      method: 'PUT',
      url: '/api/Referer/Set',
      headers: admin,
      payload: { url: PAGE, userEmail: 'rita@example.org' },
    });
    const [page] = (await referer.inject({ url: '/api/Referer/GetRefererUsers', headers: admin })).json() as {
      id: number;
    }[];
    const created = await webcam.inject({
      method: 'POST',
      url: '/api/Webcam/Set',
      headers: admin,
      payload: {
        id: 0,
        name: 'Ufer',
        pattern: 'http://127.0.0.1:9/x.jpg',
        distance: 5,
        angle: 60,
        intervalMin: 1,
        webcamType: 'STATIC',
      },
    });
    expect(created.body).toBe('true');
    const [listed] = (await webcam.inject({ url: '/api/Webcam/GetCameras?name=Ufer' })).json() as { id: number }[];
    await until(async () => {
      camera = (await imagingPartsOf(imaging).cameraDirectory.byId(listed?.id as number)) as CameraRow;
      return camera !== undefined;
    });
    const booking = await webcam.inject({
      method: 'PUT',
      url: `/api/Webcam/SetReferer/referer?webcamId=${camera.webcamId}`,
      headers: admin,
      payload: { start: '2026-01-01', end: '2035-12-31', quality: 'POOR', refererUserId: page?.id },
    });
    expect(booking.statusCode).toBe(200);
    blue = await jpeg('#0000ff');
  });

  afterAll(async () => {
    // The other services first: the bus they share closes with svc-imaging.
    for (const other of others.reverse()) await other.close();
    await service?.close();
  });

  /** Waits until `check` holds, asking every 50 ms: a change reaches the other services over the bus. */
  async function until(check: () => Promise<boolean>) {
    const deadline = Date.now() + 30_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const capture = (at: Date, picture = blue) =>
    captureTick({ ...imagingPartsOf(imaging).capture.context, source: async () => picture }, camera, at);
  const postLayer = (level: string, image: Buffer, extra: Record<string, string> = {}) => {
    const body = new FormData();
    const fields = {
      url: PAGE,
      level,
      id: '',
      enabled: 'true',
      cron: '* * * * *',
      cameraId: String(camera.webcamId),
      ...extra,
    };
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    body.append('file', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'layer.png');
    return referer.inject({ method: 'POST', url: '/api/Referer/SetLayer/layer', headers: rita, payload: body });
  };
  const setLayer = async (level: string, image: Buffer, extra: Record<string, string> = {}) => {
    const response = await postLayer(level, image, extra);
    expect(response.statusCode, response.body).toBe(200);
    return Number(response.body);
  };
  const deleteLayer = (id: number) =>
    referer.inject({
      method: 'DELETE',
      url: `/api/Referer/DeleteLayer/layer?layerId=${id}&cameraId=${camera.webcamId}`,
      headers: rita,
    });
  /** The entitlement's redirect and the picture it names, as a browser on the partner page follows it. */
  const get = (path: string, headers: Record<string, string> = {}) =>
    getPicture(imaging, `/api/Image/Get/camera/${path}`, headers);
  /** The entitlement alone: the level, the layers and the offline note are decided there. */
  const entitlementOf = (path: string, headers: Record<string, string> = {}) =>
    imaging.inject({ url: `/api/Image/Get/camera/${path}`, headers });
  /** Waits until svc-imaging draws what the page's layers say. */
  const layersSeen = (path: string, expected: (layers: string) => boolean) =>
    until(async () => expected(String((await entitlementOf(path, { referer: PAGE })).headers['x-image-layers'] ?? '')));
  const LAYERED = /^\/pictures\/Ufer\/\d{12}-POOR-[0-9a-f]{12}-p[0-9a-f]{12}-[0-9a-f]{12}\.(jpg|webp|avif)$/;

  it('draws the base layer for the booked page only, scaled to the quality, and serves it from cache', async () => {
    const now = new Date();
    await capture(now);
    // A red square over the top-left quarter of the full image.
    const base = await setLayer('BASE', await solid('#ff0000', 960, 540));
    await layersSeen('Ufer.jpg', (layers) => layers.startsWith(`b${base}.`));

    const first = await get('Ufer.jpg', { referer: `${PAGE}/today` });
    expect(first.entitlement.headers['x-image-quality']).toBe('POOR; referer booking');
    expect(first.entitlement.headers['cache-control']).toBe('private, max-age=30');
    // A page's layers are its own: even at the public level their picture's name is the page's and signed.
    expect(first.location?.pathname).toMatch(LAYERED);
    expect(first.location?.search).toMatch(/^\?e=\d+&s=[\w-]{32}$/);
    expect(first.picture.headers['x-image-quality']).toBe('POOR');
    expect(first.picture.headers['x-image-layers']).toBe(first.entitlement.headers['x-image-layers']);
    expect(first.picture.headers['x-layer-cache']).toBe('miss');
    expect(first.picture.headers['cache-control']).toMatch(/^public, max-age=\d+, immutable$/);
    expect(first.picture.headers.vary).toBeUndefined();
    expect((await sharp(first.picture.rawPayload).metadata()).width).toBe(480);
    expect(near(await pixel(first.picture.rawPayload, 10, 10), [255, 0, 0])).toBe(true);
    expect(near(await pixel(first.picture.rawPayload, 300, 200), BLUE)).toBe(true);
    // Across origins a partner page's <img> sends only the origin: its one booked page there is meant.
    const byOrigin = await get('Ufer.jpg', { referer: 'https://partner.example/' });
    expect(byOrigin.entitlement.headers['x-image-quality']).toBe('POOR; referer booking');
    expect(byOrigin.location?.pathname).toBe(first.location?.pathname);
    expect(near(await pixel(byOrigin.picture.rawPayload, 10, 10), [255, 0, 0])).toBe(true);
    const layeredLink = `${first.location?.pathname}${first.location?.search}`;
    expect((await imaging.inject({ url: layeredLink })).headers['x-layer-cache']).toBe('hit');
    expect((await imaging.inject({ url: String(first.location?.pathname) })).statusCode).toBe(403);

    const visitor = await get('Ufer.jpg');
    expect(visitor.entitlement.headers['x-image-layers']).toBeUndefined();
    expect(visitor.location?.pathname).not.toMatch(LAYERED);
    expect(visitor.picture.headers['x-image-layers']).toBeUndefined();
    expect(near(await pixel(visitor.picture.rawPayload, 10, 10), BLUE)).toBe(true);
    expect(visitor.picture.headers.etag).not.toBe(first.picture.headers.etag);
    const otherPage = await get('Ufer.jpg', { referer: 'https://elsewhere.example/lake' });
    expect(otherPage.location?.pathname).toBe(visitor.location?.pathname);
    expect(near(await pixel(otherPage.picture.rawPayload, 10, 10), BLUE)).toBe(true);

    const again = await get('Ufer.jpg', { referer: PAGE, 'if-none-match': String(first.picture.headers.etag) });
    expect(again.picture.statusCode).toBe(304);

    expect((await deleteLayer(base)).body).toBe('true');
    await layersSeen('Ufer.jpg', (layers) => layers === '');
    const plain = await get('Ufer.jpg', { referer: PAGE });
    expect(plain.location?.pathname).toBe(visitor.location?.pathname);
    expect(near(await pixel(plain.picture.rawPayload, 10, 10), BLUE)).toBe(true);
    // A cache may still hold the layered name; asked again, the page's layers are no longer those.
    expect((await imaging.inject({ url: layeredLink })).statusCode).toBe(404);
  });

  it('draws the layers into the WebP or AVIF a browser asks for, cached per format', async () => {
    await capture(new Date());
    const base = await setLayer('BASE', await solid('#ff0000', 960, 540));
    await layersSeen('Ufer.jpg', (layers) => layers.startsWith(`b${base}.`));
    const webp = await get('Ufer.jpg', { referer: PAGE, accept: 'image/webp,*/*' });
    expect(webp.location?.pathname).toMatch(/\.webp$/);
    expect(webp.picture.headers['content-type']).toBe('image/webp');
    expect(webp.picture.rawPayload.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect((await sharp(webp.picture.rawPayload).metadata()).width).toBe(480);
    expect(near(await pixel(webp.picture.rawPayload, 10, 10), [255, 0, 0])).toBe(true);
    expect(near(await pixel(webp.picture.rawPayload, 300, 200), BLUE)).toBe(true);
    const avif = await get('Ufer.jpg', { referer: PAGE, accept: 'image/avif,image/webp,*/*' });
    expect(avif.location?.pathname).toMatch(/\.avif$/);
    expect(avif.picture.rawPayload.subarray(4, 12).toString('latin1')).toBe('ftypavif');
    expect(near(await pixel(avif.picture.rawPayload, 10, 10), [255, 0, 0])).toBe(true);
    const jpeg = await get('Ufer.jpg', { referer: PAGE });
    expect(jpeg.location?.pathname).toMatch(/\.jpg$/);
    expect(jpeg.picture.headers['content-type']).toBe('image/jpeg');
    expect(new Set([webp, avif, jpeg].map((answer) => answer.picture.headers.etag)).size).toBe(3);
    const webpAgain = await get('Ufer.jpg', { referer: PAGE, accept: 'image/webp' });
    expect(webpAgain.location?.pathname).toBe(webp.location?.pathname);
    expect(webpAgain.picture.headers['x-layer-cache']).toBe('hit');
    expect((await deleteLayer(base)).body).toBe('true');
    await layersSeen('Ufer.jpg', (layers) => layers === '');
  });

  it("shows a page's owner the picture as that page gets it (preview), and nobody else", async () => {
    const base = await setLayer('BASE', await solid('#ff0000', 960, 540));
    const previewUrl = (page = PAGE) => `Ufer.jpg?page=${encodeURIComponent(page)}`;
    await until(async () =>
      String((await entitlementOf(previewUrl(), rita)).headers['x-image-layers'] ?? '').startsWith(`b${base}.`),
    );
    const own = await get(previewUrl(), rita);
    expect(own.entitlement.headers['x-image-quality']).toBe('POOR; referer booking');
    expect(own.entitlement.headers['cache-control']).toMatch(/^private/);
    expect(near(await pixel(own.picture.rawPayload, 10, 10), [255, 0, 0])).toBe(true);
    // The picture itself asks for no credentials: it is the page's, under the page's name.
    expect(own.picture.headers['cache-control']).toMatch(/^public, max-age=\d+, immutable$/);
    const byAdmin = await entitlementOf(previewUrl(), admin);
    expect(byAdmin.headers['x-image-layers']).toBe(own.entitlement.headers['x-image-layers']);
    const otto = { authorization: `Bearer ${sign({ sub: '33333333-3333-4333-8333-333333333333', role: [] })}` };
    expect((await entitlementOf(previewUrl(), otto)).statusCode).toBe(403);
    expect((await entitlementOf(previewUrl('https://not-mine.example/'), rita)).statusCode).toBe(403);
    expect((await entitlementOf(previewUrl(), {})).statusCode).toBe(401);
    await deleteLayer(base);
  });

  it('previews the page exactly as it gets it, though its owner has a quality of her own for the camera', async () => {
    const base = await setLayer('BASE', await solid('#ff0000', 960, 540));
    const configure = await webcam.inject({
      method: 'POST',
      url: `/api/Webcam/SetConfiguration/configuration?webcamId=${camera.webcamId}&userId=${RITA}&quality=FULL`,
      headers: admin,
    });
    expect(configure.body).toBe('true');
    await until(
      async () => (await entitlementOf('Ufer.jpg', rita)).headers['x-image-quality'] === 'FULL; own configuration',
    );
    await layersSeen('Ufer.jpg', (layers) => layers.startsWith(`b${base}.`));

    const preview = await get(`Ufer.jpg?page=${encodeURIComponent(PAGE)}`, rita);
    const visitor = await get('Ufer.jpg', { referer: PAGE });
    expect(preview.entitlement.headers['x-image-quality']).toBe('POOR; referer booking');
    expect(preview.entitlement.headers['x-image-layers']).toBe(visitor.entitlement.headers['x-image-layers']);
    // The very picture the page's visitors get: one name, one cached copy.
    expect(preview.location?.pathname).toBe(visitor.location?.pathname);
    expect(preview.picture.headers.etag).toBe(visitor.picture.headers.etag);
    expect(preview.picture.rawPayload.equals(visitor.picture.rawPayload)).toBe(true);
    expect(near(await pixel(preview.picture.rawPayload, 10, 10), [255, 0, 0])).toBe(true);

    const [own] = (
      await webcam.inject({
        url: `/api/Webcam/GetConfiguration/configuration?webcamId=${camera.webcamId}`,
        headers: admin,
      })
    ).json() as { id: number }[];
    await webcam.inject({
      method: 'DELETE',
      url: `/api/Webcam/RemoveConfiguration/configuration?configurationId=${own?.id}`,
      headers: admin,
    });
    await deleteLayer(base);
  });

  it('rotates the advertisements so that with N of them each shows on every Nth image', async () => {
    const colors: Record<string, Rgb> = {};
    for (const [color, rgb] of [
      ['#ff0000', [255, 0, 0]],
      ['#00ff00', [0, 255, 0]],
      ['#ffff00', [255, 255, 0]],
    ] as const) {
      colors[String(await setLayer('TIME', await solid(color, 400, 400)))] = [...rgb];
    }
    // Not its turn ever: switched off, or its cron never matches these minutes.
    const off = await setLayer('TIME', await solid('#ffffff', 400, 400), { enabled: 'false' });
    const never = await setLayer('TIME', await solid('#ffffff', 400, 400), { cron: '0 0 1 1 *' });
    const start = new Date(Date.now() - 10 * 60_000);
    const names: string[] = [];
    for (let i = 0; i < 6; i++) {
      const at = new Date(start.getTime() + i * 60_000);
      await capture(at);
      names.push(imageNameOf(at));
    }
    const ids = Object.keys(colors);
    await layersSeen(`Ufer/${names[0]}.jpg`, (layers) => ids.some((id) => layers.includes(`t${id}.`)));
    const shown: string[] = [];
    for (const name of names) {
      const { entitlement, picture } = await get(`Ufer/${name}.jpg`, { referer: PAGE });
      const layers = String(entitlement.headers['x-image-layers']);
      expect(picture.headers['x-image-layers'], name).toBe(layers);
      const ad = ids.find((id) => layers.includes(`t${id}.`)) as string;
      expect(near(await pixel(picture.rawPayload, 5, 5), colors[ad] as Rgb), `${name} shows ad ${ad}`).toBe(true);
      shown.push(ad);
    }
    expect(new Set(shown).size).toBe(3);
    expect(shown.slice(3)).toEqual(shown.slice(0, 3));
    expect(shown).not.toContain(String(off));
    expect(shown).not.toContain(String(never));
    for (const id of [...ids, String(off), String(never)]) await deleteLayer(Number(id));
  });

  it('takes a picture uploaded by an admin as the current image; refuses non-images and non-admins', async () => {
    const upload = (headers: Record<string, string>, bytes: Buffer, query = `webcamId=${camera.webcamId}`) => {
      const body = new FormData();
      body.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'upload.jpg');
      return imaging.inject({ method: 'POST', url: `/api/Image/Upload?${query}`, headers, payload: body });
    };
    const before = await get('Ufer.jpg');
    expect(near(await pixel(before.picture.rawPayload, 100, 100), BLUE)).toBe(true);
    const beforeName = before.entitlement.headers['x-image-name'];
    expect((await upload({}, blue)).statusCode).toBe(401);
    expect((await upload(rita, blue)).statusCode).toBe(403);
    const bad = await upload(admin, Buffer.from('no picture at all'));
    expect([bad.statusCode, bad.json().message]).toEqual([400, 'The file is not an image']);
    expect((await upload(admin, blue, 'webcamId=999999')).statusCode).toBe(404);
    expect((await entitlementOf('Ufer.jpg')).headers['x-image-name']).toBe(beforeName);

    const orange = await sharp({ create: { ...FULL, channels: 3, background: '#ff8800' } })
      .jpeg()
      .toBuffer();
    const minute = imageNameOf(new Date());
    const ok = await upload(admin, orange);
    expect([ok.statusCode, ok.body]).toEqual([200, 'true']);
    // The upload tells every replica (this one too) over the bus; the redirect then names the new content.
    let current = await get('Ufer.jpg');
    await until(async () => {
      current = await get('Ufer.jpg');
      return current.location?.pathname !== before.location?.pathname;
    });
    expect([minute, imageNameOf(new Date())]).toContain(current.entitlement.headers['x-image-name']);
    expect(near(await pixel(current.picture.rawPayload, 100, 100), [255, 136, 0])).toBe(true);
    // An upload may replace a minute's picture: the content is in the name, so a cached name never changes bytes.
    expect(current.location?.pathname).not.toBe(before.location?.pathname);
    const previous = await imaging.inject({ url: String(before.location?.pathname) });
    if (previous.statusCode === 200) expect(near(await pixel(previous.rawPayload, 100, 100), BLUE)).toBe(true);
    else expect(previous.statusCode).toBe(404);
  });
  it('refuses a 20000 × 20000 picture as too large, naming the limit, as a camera upload and as a layer', async () => {
    const huge = pngHeaderOf(20_000, 20_000);
    const limit = 'The picture is too large: at most 33177600 pixels (7680 × 4320)';
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(huge)], { type: 'image/png' }), 'huge.png');
    const before = (await entitlementOf('Ufer.jpg')).headers['x-image-name'];
    const upload = await imaging.inject({
      method: 'POST',
      url: `/api/Image/Upload?webcamId=${camera.webcamId}`,
      headers: admin,
      payload: body,
    });
    expect([upload.statusCode, upload.json().message]).toEqual([413, limit]);
    expect((await entitlementOf('Ufer.jpg')).headers['x-image-name']).toBe(before);
    const layer = await postLayer('BASE', huge);
    expect([layer.statusCode, layer.json().message]).toEqual([413, limit]);
    // 8K itself is within the limit.
    expect((await postLayer('BASE', pngHeaderOf(7680, 4320))).json().message).toBe('The file is not an image');
  });

  it('replaces the picture of a frozen camera with the offline layer, with the base layer over it', async () => {
    const offline = await setLayer('OFFLINE', await solid('#00ff00', 1920, 1080));
    const base = await setLayer('BASE', await solid('#ff0000', 100, 100));
    const now = new Date();
    await capture(new Date(now.getTime() + 60_000));
    await capture(new Date(now.getTime() + 120_000));
    await layersSeen('Ufer.jpg', (layers) => layers.startsWith(`o${offline}.`));
    const { entitlement, picture } = await get('Ufer.jpg', { referer: PAGE });
    expect(entitlement.headers['x-camera-offline']).toBe('frozen');
    expect(picture.headers['x-image-layers']).toMatch(new RegExp(`^o${offline}\\.`));
    expect(near(await pixel(picture.rawPayload, 2, 2), [255, 0, 0])).toBe(true);
    expect(near(await pixel(picture.rawPayload, 300, 200), [0, 255, 0])).toBe(true);
    // Visitors without a booking keep the last picture and the offline note.
    const visitor = await get('Ufer.jpg');
    expect(visitor.entitlement.headers['x-camera-offline']).toBe('frozen');
    expect(near(await pixel(visitor.picture.rawPayload, 300, 200), BLUE)).toBe(true);
    await deleteLayer(offline);
    await deleteLayer(base);
  });

  it('a camera that hangs, sends garbage or too much: the job records why, and after 3 intervals the offline layer shows', async () => {
    const offline = await setLayer('OFFLINE', await solid('#00ff00', 1920, 1080));
    const server = createServer((request, response) => {
      if (request.url === '/hang.jpg') return; // never answers
      if (request.url === '/garbage.jpg') {
        response.writeHead(200, { 'content-type': 'image/jpeg' });
        return response.end('definitely not a jpeg');
      }
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      response.end(Buffer.alloc(256 * 1024, 0xff));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const limits = { timeoutMs: 300, maxBytes: 64 * 1024, retries: 0 };
    try {
      // Time passes: every good picture of the camera is now at least four intervals old.
      const lastGood = new Date(Date.now() - 4 * 60_000);
      await service.db
        .updateTable('captures')
        .set({ startedAt: lastGood })
        .where('webcamId', '=', camera.webcamId)
        .execute();
      const errors: string[] = [];
      // Minutes no earlier test captured: a tick already taken is skipped, and the clock may have moved on.
      const taken = new Set(
        (await service.db.selectFrom('captures').select('name').where('webcamId', '=', camera.webcamId).execute()).map(
          (row) => row.name,
        ),
      );
      const free: Date[] = [];
      for (let back = 1; free.length < 3; back += 1) {
        const at = new Date(Date.now() - back * 60_000);
        if (!taken.has(imageNameOf(at))) free.push(at);
      }
      for (const [index, path] of (['/hang.jpg', '/garbage.jpg', '/huge.jpg'] as const).entries()) {
        const result = await captureTick(
          { ...imagingPartsOf(imaging).capture.context, limits },
          { ...camera, pattern: `${base}${path}` },
          free[2 - index] as Date,
        );
        expect(result.outcome, path).toBe('failed');
        errors.push(result.outcome === 'failed' ? result.error : '');
      }
      expect(errors[0]).toMatch(/no answer within|time/i);
      expect(errors[1]).toMatch(/decodable/i);
      expect(errors[2]).toMatch(/large|limit|bytes/i);
      const jobs = await imaging.inject({ url: '/api/Jobs/state', headers: admin });
      expect(JSON.stringify(jobs.json())).toContain(errors[1]);

      await until(
        async () => (await entitlementOf('Ufer.jpg', { referer: PAGE })).headers['x-camera-offline'] === 'silent',
      );
      const { entitlement, picture } = await get('Ufer.jpg', { referer: PAGE });
      expect(entitlement.headers['x-image-layers']).toMatch(new RegExp(`^o${offline}\\.`));
      expect(picture.headers['x-image-layers']).toBe(entitlement.headers['x-image-layers']);
      expect(near(await pixel(picture.rawPayload, 300, 200), [0, 255, 0])).toBe(true);
    } finally {
      await deleteLayer(offline);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
