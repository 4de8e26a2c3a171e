import { type LayerImageChunk, MAX_TIME_LAYERS_PER_CAMERA } from '@lakecams/contracts';
import { LayerChanged, LayerImage, type PayloadOf, UserChanged } from '@lakecams/contracts/messages';
import { ADMIN_ROLE, generateSigningKeys } from '@lakecams/service-kit';
import { buildWebcamService, type WebcamTestService } from '@lakecams/svc-webcam/testing';
import { createSigner } from 'fast-jwt';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildRefererService, type RefererTestService } from '../src/testing.ts';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const RITA = '22222222-2222-4222-8222-222222222222';
const OTTO = '33333333-3333-4333-8333-333333333333';
const bearer = (sub: string, role: string[]) => ({ authorization: `Bearer ${sign({ sub, role })}` });
const admin = bearer('11111111-1111-4111-8111-111111111111', [ADMIN_ROLE]);
const rita = bearer(RITA, ['Referer']);
const otto = bearer(OTTO, ['Referer']);
const RITA_PAGE = 'https://rita.example/page';
const OTTO_PAGE = 'https://otto.example/';

const overlay = (color: string) =>
  sharp({ create: { width: 64, height: 32, channels: 4, background: color } })
    .png()
    .toBuffer();

describe('layers in svc-referer (with svc-webcam for bookings) on real PostgreSQL', () => {
  const layerEvents: PayloadOf<typeof LayerChanged>[] = [];
  let webcam: WebcamTestService;
  let referer: RefererTestService;
  let booked: number;
  let unbooked: number;
  let red: Buffer;

  beforeAll(async () => {
    referer = await buildRefererService({ keys });
    // svc-webcam keeps the bookings svc-referer asks for: on the same bus.
    webcam = await buildWebcamService({ bus: referer.bus, keys });
    await referer.bus.consume<PayloadOf<typeof LayerChanged>>(
      (message) => {
        layerEvents.push(message.data);
        message.ack();
      },
      { durable: 'test-layer-observer', filter: LayerChanged.subject },
    );
    for (const [id, userName] of [
      [RITA, 'rita_referer'],
      [OTTO, 'otto_other'],
    ] as const) {
      await referer.bus.publishEvent(UserChanged.subject, {
        id,
        userName,
        email: `${userName}@example.org`,
        emailConfirmed: true,
      });
    }
    // svc-referer learns users from the bus; wait until it knows both.
    await vi.waitFor(
      async () =>
        expect((await referer.app.inject({ url: '/api/Referer/GetUsers/users', headers: admin })).json()).toHaveLength(
          2,
        ),
      { timeout: 30_000, interval: 100 },
    );
    for (const [url, userEmail] of [
      [RITA_PAGE, 'rita_referer@example.org'],
      [OTTO_PAGE, 'otto_other@example.org'],
    ]) {
      const set = await referer.app.inject({
        method: 'PUT',
        url: '/api/Referer/Set',
        headers: admin,
        payload: { url, userEmail },
      });
      expect(set.statusCode).toBe(200);
    }
    const pages = (await referer.app.inject({ url: '/api/Referer/GetRefererUsers', headers: admin })).json() as {
      id: number;
      url: string;
    }[];
    const ritaPage = pages.find((p) => p.url === RITA_PAGE)?.id;
    for (const name of ['layer-booked', 'layer-unbooked']) {
      const camera = { id: 0, name, pattern: 'https://cam.example/a.jpg', distance: 5, angle: 60, intervalMin: 1 };
      const created = await webcam.app.inject({
        method: 'POST',
        url: '/api/Webcam/Set',
        headers: admin,
        payload: { ...camera, webcamType: 'STATIC' },
      });
      expect(created.body).toBe('true');
    }
    const cameras = (await webcam.app.inject({ url: '/api/Webcam/GetCameras' })).json() as {
      id: number;
      name: string;
    }[];
    booked = cameras.find((c) => c.name === 'layer-booked')?.id as number;
    unbooked = cameras.find((c) => c.name === 'layer-unbooked')?.id as number;
    const booking = await webcam.app.inject({
      method: 'PUT',
      url: `/api/Webcam/SetReferer/referer?webcamId=${booked}`,
      headers: admin,
      payload: { start: '2026-01-01', end: '2030-12-31', quality: 'HIGH', refererUserId: ritaPage },
    });
    expect(booking.statusCode).toBe(200);
    red = await overlay('#ff000080');
  });

  afterAll(async () => {
    // svc-webcam borrowed svc-referer's bus: it closes first.
    await webcam?.close();
    await referer?.close();
  });

  const form = (fields: Record<string, string>, file?: Buffer, filename = 'layer.png') => {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    if (file) body.append('file', new Blob([new Uint8Array(file)], { type: 'image/png' }), filename);
    return body;
  };
  const setLayer = (headers: Record<string, string>, fields: Record<string, string>, file?: Buffer) =>
    referer.app.inject({ method: 'POST', url: '/api/Referer/SetLayer/layer', headers, payload: form(fields, file) });
  const newLayer = (level: string, extra: Record<string, string> = {}) => ({
    url: RITA_PAGE,
    level,
    id: '',
    enabled: 'true',
    cron: '* * * * *',
    cameraId: String(booked),
    ...extra,
  });
  const getLayers = (headers: Record<string, string>, level: string, url = RITA_PAGE, cameraId = booked) =>
    referer.app.inject({
      url: `/api/Referer/GetLayer/layer?url=${encodeURIComponent(url)}&level=${level}&cameraId=${cameraId}`,
      headers,
    });

  it('answers 401 to anonymous callers on every layer call', async () => {
    for (const [method, url] of [
      ['GET', '/api/Referer/GetCameras/Cameras'],
      ['GET', `/api/Referer/GetLayer/layer?url=x&level=BASE&cameraId=1`],
      ['GET', '/api/Referer/GetLayerImage/layerimage?layerId=1&cameraId=1'],
      ['DELETE', '/api/Referer/DeleteLayer/layer?layerId=1&cameraId=1'],
      ['POST', '/api/Referer/SetLayer/layer'],
    ] as const) {
      expect((await referer.app.inject({ method, url })).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('offers each referer user the cameras booked for its pages, an admin all', async () => {
    const names = async (headers: Record<string, string>, query = '') =>
      (
        (await referer.app.inject({ url: `/api/Referer/GetCameras/Cameras${query}`, headers })).json() as {
          name: string;
        }[]
      ).map((c) => c.name);
    expect(await names(rita)).toEqual(['layer-booked']);
    expect(await names(otto)).toEqual([]);
    expect(await names(admin)).toEqual(expect.arrayContaining(['layer-booked', 'layer-unbooked']));
    expect(await names(rita, `?url=${encodeURIComponent(RITA_PAGE)}`)).toEqual(['layer-booked']);
    expect(await names(rita, `?url=${encodeURIComponent(OTTO_PAGE)}`)).toEqual([]);
    // Camera setup asks per page: an Admin acting as itself gets every camera for any page (product.md §6.4).
    for (const page of [RITA_PAGE, OTTO_PAGE]) {
      expect(await names(admin, `?url=${encodeURIComponent(page)}`)).toEqual(
        expect.arrayContaining(['layer-booked', 'layer-unbooked']),
      );
    }
    expect(await names(admin, `?url=${encodeURIComponent('https://nobody.example/')}`)).toEqual([]);
    // Acting as a referer user, an Admin gets that user's bookings only.
    expect(await names({ ...admin, impersonate: RITA }, `?url=${encodeURIComponent(RITA_PAGE)}`)).toEqual([
      'layer-booked',
    ]);
  });

  it('saves a new layer with its image, lists it, serves the PNG and announces it', async () => {
    const saved = await setLayer(rita, newLayer('BASE'), red);
    expect(saved.statusCode).toBe(200);
    const id = Number(saved.body);
    expect(id).toBeGreaterThan(0);
    expect((await getLayers(rita, 'BASE')).json()).toEqual([
      { id, level: 'BASE', cron: '* * * * *', enabled: true, url: RITA_PAGE, cameraId: booked },
    ]);
    expect((await getLayers(rita, 'TIME')).json()).toEqual([]);
    const image = await referer.app.inject({
      url: `/api/Referer/GetLayerImage/layerimage?layerId=${id}&cameraId=${booked}`,
      headers: rita,
    });
    expect(image.headers['content-type']).toBe('image/png');
    expect(await sharp(image.rawPayload).metadata()).toMatchObject({ width: 64, height: 32, format: 'png' });
    const again = await referer.app.inject({
      url: `/api/Referer/GetLayerImage/layerimage?layerId=${id}&cameraId=${booked}`,
      headers: { ...rita, 'if-none-match': String(image.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const weak = await referer.app.inject({
      url: `/api/Referer/GetLayerImage/layerimage?layerId=${id}&cameraId=${booked}`,
      headers: { ...rita, 'if-none-match': `"x", W/${image.headers.etag}` },
    });
    expect(weak.statusCode).toBe(304);
    await expect.poll(() => layerEvents.find((e) => e.layer.id === id)).toMatchObject({ deleted: false });
    const chunk = await referer.bus.request<LayerImageChunk>(LayerImage.subject, { layerId: id, offset: 0 });
    expect(Buffer.from(chunk.data, 'base64').equals(image.rawPayload)).toBe(true);
    expect(chunk.total).toBe(image.rawPayload.length);
  });

  it('edits a layer keeping its image, and replaces the image when one is sent', async () => {
    const id = Number((await setLayer(rita, newLayer('OFFLINE'), red)).body);
    const kept = await setLayer(
      rita,
      newLayer('OFFLINE', { id: String(id), cron: '*/5 8-18 * * 1-5', enabled: 'false' }),
    );
    expect(kept.body).toBe(String(id));
    expect((await getLayers(rita, 'OFFLINE')).json()).toEqual([
      { id, level: 'OFFLINE', cron: '*/5 8-18 * * 1-5', enabled: false, url: RITA_PAGE, cameraId: booked },
    ]);
    const hashBefore = layerEvents.filter((e) => e.layer.id === id).at(-1)?.imageHash;
    await setLayer(rita, newLayer('OFFLINE', { id: String(id) }), await overlay('#0000ff'));
    await expect.poll(() => layerEvents.filter((e) => e.layer.id === id).at(-1)?.imageHash).not.toBe(hashBefore);
  });

  it('refuses bad layers with a clear 400 and stores nothing', async () => {
    const before = (await getLayers(rita, 'TIME')).json();
    const cases: [Record<string, string>, Buffer | undefined, number, string][] = [
      [newLayer('TIME'), undefined, 400, 'A new layer needs an image'],
      [newLayer('TIME', { cron: '' }), red, 400, 'Cron definition wird benötigt'],
      [newLayer('TIME', { cron: 'every minute' }), red, 400, 'This is not a cron definition'],
      [newLayer('TIME', { cron: '* * * *' }), red, 400, 'This is not a cron definition'],
      // croner, which schedules layers, refuses these; a five-field look is not enough.
      ...['99 99 99 99 99', '*/0 * * * *', '60-0 * * * *', '5-1/0 * * * *', '1,,2 * * * *', '- * * * *'].map(
        (cron): [Record<string, string>, Buffer, number, string] => [
          newLayer('TIME', { cron }),
          red,
          400,
          'This is not a cron definition',
        ],
      ),
      [newLayer('TIME', { cron: '0 0 * * * *' }), red, 400, 'This is not a cron definition'],
      [newLayer('SOMETIMES'), red, 400, 'Level must be one of BASE, TIME, OFFLINE'],
      [newLayer('TIME', { cameraId: 'x' }), red, 400, 'cameraId must be a camera id'],
      [newLayer('TIME', { enabled: 'maybe' }), red, 400, 'enabled must be true or false'],
      [newLayer('TIME', { url: '' }), red, 400, 'Url wird benötigt'],
      [newLayer('TIME'), Buffer.from('this is not an image'), 400, 'The file is not an image'],
      [newLayer('TIME'), red.subarray(0, red.length / 2), 400, 'The file is not an image'],
      [newLayer('TIME', { id: '999999' }), red, 404, `No layer 999999 on camera ${booked}`],
    ];
    for (const [fields, file, status, message] of cases) {
      const response = await setLayer(rita, fields, file);
      expect([response.statusCode, response.json().message], JSON.stringify(fields)).toEqual([status, message]);
    }
    const huge = await setLayer(rita, newLayer('TIME'), Buffer.alloc(6 * 1024 * 1024, 1));
    expect(huge.statusCode).toBe(413);
    const json = await referer.app.inject({
      method: 'POST',
      url: '/api/Referer/SetLayer/layer',
      headers: rita,
      payload: { url: RITA_PAGE },
    });
    expect(json.statusCode).toBe(415);
    expect((await getLayers(rita, 'TIME')).json()).toEqual(before);
  });

  it('keeps a referer user to its own pages, layers and booked cameras (403), an admin anywhere', async () => {
    const id = Number((await setLayer(rita, newLayer('BASE'), red)).body);
    expect((await setLayer(otto, newLayer('BASE'), red)).statusCode).toBe(403);
    expect((await setLayer(otto, { ...newLayer('BASE', { id: String(id) }), url: OTTO_PAGE }, red)).statusCode).toBe(
      403,
    );
    expect((await setLayer(rita, newLayer('BASE', { cameraId: String(unbooked) }), red)).statusCode).toBe(403);
    expect((await getLayers(otto, 'BASE')).statusCode).toBe(403);
    expect((await getLayers(rita, 'BASE', RITA_PAGE, unbooked)).statusCode).toBe(403);
    for (const [method, url] of [
      ['GET', `/api/Referer/GetLayerImage/layerimage?layerId=${id}&cameraId=${booked}`],
      ['DELETE', `/api/Referer/DeleteLayer/layer?layerId=${id}&cameraId=${booked}`],
    ] as const) {
      expect((await referer.app.inject({ method, url, headers: otto })).statusCode, `${method} ${url}`).toBe(403);
    }
    // An admin acting as rita has rita's rights only.
    const asOtto = await referer.app.inject({
      url: `/api/Referer/GetLayerImage/layerimage?layerId=${id}&cameraId=${booked}`,
      headers: { ...admin, impersonate: OTTO },
    });
    expect(asOtto.statusCode).toBe(403);
    expect((await getLayers(admin, 'BASE')).json()).toContainEqual(expect.objectContaining({ id }));
    expect((await setLayer(admin, newLayer('BASE', { cameraId: String(unbooked) }), red)).statusCode).toBe(200);
  });

  it('deletes a layer (true), then 404, and announces the deletion', async () => {
    const id = Number((await setLayer(rita, newLayer('TIME'), red)).body);
    const remove = () =>
      referer.app.inject({
        method: 'DELETE',
        url: `/api/Referer/DeleteLayer/layer?layerId=${id}&cameraId=${booked}`,
        headers: rita,
      });
    expect((await remove()).body).toBe('true');
    expect((await remove()).statusCode).toBe(404);
    await expect.poll(() => layerEvents.find((e) => e.layer.id === id && e.deleted)).toBeTruthy();
  });

  it(`carries at most ${MAX_TIME_LAYERS_PER_CAMERA} advertisements per camera`, async () => {
    const existing = ((await getLayers(admin, 'TIME')).json() as unknown[]).length;
    const small = await overlay('#00ff00');
    for (let i = existing; i < MAX_TIME_LAYERS_PER_CAMERA; i++) {
      expect((await setLayer(rita, newLayer('TIME'), small)).statusCode).toBe(200);
    }
    const tooMany = await setLayer(rita, newLayer('TIME'), small);
    expect([tooMany.statusCode, tooMany.json().message]).toEqual([
      400,
      `A camera carries at most ${MAX_TIME_LAYERS_PER_CAMERA} advertisements`,
    ]);
  });
});
