import { CameraUpserted, ImageCaptured, ImagesThinned } from '@lakecams/contracts/messages';
import type { CameraListItem, Webcam } from '@lakecams/contracts';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebcamService, DEMO_CAMERAS, type WebcamTestService } from '../src/testing.ts';

describe('svc-webcam on real PostgreSQL', () => {
  let webcam: WebcamTestService;
  const upserted: Webcam[] = [];

  beforeAll(async () => {
    webcam = await buildWebcamService({
      options: { demoCameras: true },
    });
    // Every camera announced from the first one: the durable consumer reads the events stored before it.
    await webcam.bus.consume(
      (message) => {
        upserted.push(message.data as Webcam);
        message.ack();
      },
      { durable: 'test-camera-announcements', filter: CameraUpserted.subject },
    );
  });

  afterAll(async () => webcam?.close());

  it('serves the seeded demo cameras sorted by name, without images until svc-imaging captures', async () => {
    const response = await webcam.app.inject({ method: 'GET', url: '/api/Webcam/GetCameras' });
    expect(response.statusCode).toBe(200);
    const cameras = response.json<Webcam[]>();
    expect(cameras.map((c) => c.name)).toEqual(DEMO_CAMERAS.map((c) => c.name).sort());
    const rapperswil = cameras.find((c) => c.name === 'Rapperswil-Seedamm');
    expect(rapperswil).toMatchObject({ distance: 6, angle: 70, intervalMin: 5, webcamType: 'STATIC' });
    // The source URL may carry credentials: the public never sees it; svc-imaging hears it on the bus.
    expect(rapperswil?.pattern).toBe('');
    await expect
      .poll(() => upserted.find((c) => c.name === 'Rapperswil-Seedamm')?.pattern)
      .toBe('http://demo-source.invalid/api/Image/DemoSource/Rapperswil-Seedamm.jpg');
    // The list shows only cameras with an image.
    expect((await webcam.app.inject({ url: '/api/Webcam/GetImages' })).json()).toEqual([]);
  });

  it('filters by camera name', async () => {
    const response = await webcam.app.inject({ method: 'GET', url: '/api/Webcam/GetCameras?name=Richterswil' });
    expect(response.json<Webcam[]>().map((c) => c.name)).toEqual(['Richterswil']);
    const none = await webcam.app.inject({ method: 'GET', url: '/api/Webcam/GetCameras?name=Nowhere' });
    expect(none.json()).toEqual([]);
  });

  it('rejects an over-long name filter with a 400 and the uniform error body', async () => {
    const response = await webcam.app.inject({ method: 'GET', url: `/api/Webcam/GetImages?name=${'x'.repeat(65)}` });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(response.json().message).toContain('name');
  });

  it('serves the news text as plain text', async () => {
    const response = await webcam.app.inject({ method: 'GET', url: '/api/News/News/news' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toContain('Zürichsee');
  });

  it('announces the seeded cameras on the bus with their first position', async () => {
    await expect.poll(() => upserted.length).toBe(DEMO_CAMERAS.length);
    expect(upserted).toContainEqual(
      expect.objectContaining({ name: 'Richterswil', position: { lat: 47.2085, lng: 8.704, direction: 30 } }),
    );
  });

  it('re-points a demo camera an earlier portal pointed at its own address, on the next start', async () => {
    await webcam.db
      .updateTable('webcams')
      .set({ pattern: 'http://127.0.0.1:8080/api/Image/DemoSource/Richterswil.jpg' })
      .where('name', '=', 'Richterswil')
      .execute();
    const before = upserted.length;
    await webcam.restart({ demoCameras: true });
    await expect.poll(() => upserted.length).toBe(before + 1);
    expect(upserted.at(-1)).toMatchObject({
      name: 'Richterswil',
      pattern: 'http://demo-source.invalid/api/Image/DemoSource/Richterswil.jpg',
    });
  });
  it('records image metadata published by svc-imaging as the latest image', async () => {
    const webcamId = (await webcam.app.inject({ url: '/api/Webcam/GetCameras?name=Maennedorf' })).json<Webcam[]>()[0]
      ?.id as number;
    await webcam.bus.publishEvent(ImageCaptured.subject, {
      webcamId,
      name: '209912312359',
      lat: 47.25,
      lng: 8.7,
      direction: 90,
    });
    await expect
      .poll(
        async () =>
          (await webcam.app.inject({ url: '/api/Webcam/GetImages?name=Maennedorf' })).json<CameraListItem[]>()[0]
            ?.images[0],
      )
      .toEqual({ webcamId, name: '209912312359', lat: 47.25, lng: 8.7, direction: 90 });
  });

  it('serves the camera list from memory, gzip when asked, 304 for an unchanged one, fresh after a new image', async () => {
    const first = await webcam.app.inject({ url: '/api/Webcam/GetImages', headers: { 'accept-encoding': 'gzip, br' } });
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers.vary).toBe('Accept-Encoding');
    const items = JSON.parse(gunzipSync(first.rawPayload).toString()) as CameraListItem[];
    expect(items.map((i) => i.webcam.name)).toContain('Maennedorf');
    const plain = await webcam.app.inject({ url: '/api/Webcam/GetImages' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(items);
    const unchanged = await webcam.app.inject({
      url: '/api/Webcam/GetImages',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(unchanged.statusCode).toBe(304);
    // RFC 9110: weak comparison, a list, and * all name the current list.
    for (const condition of [`W/${first.headers.etag}`, `"x", ${first.headers.etag}`, '*']) {
      const conditional = await webcam.app.inject({
        url: '/api/Webcam/GetImages',
        headers: { 'if-none-match': condition },
      });
      expect([conditional.statusCode, conditional.headers.etag], condition).toEqual([304, first.headers.etag]);
    }

    const webcamId = items.find((i) => i.webcam.name === 'Maennedorf')?.webcam.id as number;
    await webcam.bus.publishEvent(ImageCaptured.subject, {
      webcamId,
      name: '209912312400',
      lat: 47.25,
      lng: 8.7,
      direction: 91,
    });
    await expect
      .poll(
        async () => {
          const response = await webcam.app.inject({
            url: '/api/Webcam/GetImages',
            headers: { 'if-none-match': String(first.headers.etag) },
          });
          return (
            response.statusCode === 200 &&
            response.json<CameraListItem[]>().find((i) => i.webcam.id === webcamId)?.images[0]?.name
          );
        },
        { timeout: 30_000 },
      )
      .toBe('209912312400');
  });

  it("keeps each picture's score and forgets the pictures the archive thinned away", async () => {
    const webcamId = (await webcam.app.inject({ url: '/api/Webcam/GetCameras?name=Staefa-Kehlhof' })).json<
      { id: number }[]
    >()[0]?.id as number;
    const scores = { '202001011200': 40, '202001011220': 75.5, '202001011300': 60 };
    for (const [name, score] of Object.entries(scores)) {
      await webcam.bus.publishEvent(ImageCaptured.subject, {
        webcamId,
        name,
        lat: 47.2,
        lng: 8.7,
        direction: 1,
        score,
      });
    }
    const history = async () =>
      (await webcam.app.inject({ url: '/api/Webcam/GetImageHistory?name=Staefa-Kehlhof&day=2020-01-01' }))
        .json<{ images: { name: string }[] }>()
        .images.map((image) => image.name);
    await expect.poll(history).toEqual(Object.keys(scores));
    const best = await webcam.app.inject({ url: '/api/Webcam/GetBestOf?name=Staefa-Kehlhof&day=2020-01-01' });
    expect(best.json()).toEqual({ name: '202001011220', score: 75.5, chosenBy: 'score' });
    // Announced again without a score (a moved position): the score stays.
    await webcam.bus.publishEvent(ImageCaptured.subject, {
      webcamId,
      name: '202001011220',
      lat: 47.3,
      lng: 8.7,
      direction: 1,
    });
    await expect
      .poll(
        async () =>
          (await webcam.app.inject({ url: '/api/Webcam/GetImageHistory?name=Staefa-Kehlhof&day=2020-01-01' }))
            .json<{ images: { name: string; lat: number }[] }>()
            .images.find((image) => image.name === '202001011220')?.lat,
      )
      .toBe(47.3);
    const still = await webcam.app.inject({ url: '/api/Webcam/GetBestOf?name=Staefa-Kehlhof&day=2020-01-01' });
    expect(still.json()).toEqual({ name: '202001011220', score: 75.5, chosenBy: 'score' });
    await webcam.bus.publishEvent(ImagesThinned.subject, { webcamId, day: '20200101', keep: ['202001011220'] });
    await expect.poll(history).toEqual(['202001011220']);
    const days = await webcam.app.inject({ url: '/api/Webcam/GetImageDays?name=Staefa-Kehlhof&month=2020-01' });
    expect(days.json()).toMatchObject({ days: ['2020-01-01'], first: '2020-01-01' });
  });

  it('tells in the history since when the newest picture of the day has been the same picture', async () => {
    const webcamId = (await webcam.app.inject({ url: '/api/Webcam/GetCameras?name=Halbinsel-Au' })).json<
      { id: number }[]
    >()[0]?.id as number;
    const capture = (name: string, frozen?: boolean) =>
      webcam.bus.publishEvent(ImageCaptured.subject, {
        webcamId,
        name,
        lat: 47.2,
        lng: 8.7,
        direction: 1,
        ...(frozen === undefined ? {} : { frozen }),
      });
    const history = async (day: string) =>
      (await webcam.app.inject({ url: `/api/Webcam/GetImageHistory?name=Halbinsel-Au&day=${day}` })).json<{
        images: { name: string }[];
        frozenSince: string | null;
      }>();
    const lastOf = async (day: string) => (await history(day)).images.at(-1)?.name;
    await capture('202002011150', false);
    await capture('202002011200', false);
    await expect.poll(() => lastOf('2020-02-01')).toBe('202002011200');
    expect((await history('2020-02-01')).frozenSince).toBeNull();
    await capture('202002011210', true);
    await capture('202002011220', true);
    await expect.poll(() => lastOf('2020-02-01')).toBe('202002011220');
    const frozenDay = await history('2020-02-01');
    expect(frozenDay.frozenSince).toBe('202002011200');
    // The pictures themselves look as before.
    expect(frozenDay.images.at(-1)).toEqual({ webcamId, name: '202002011220', lat: 47.2, lng: 8.7, direction: 1 });
    // Announced again without the flag (a moved position): still frozen.
    await capture('202002011220');
    // The run goes on into the next day.
    await capture('202002020000', true);
    await expect.poll(() => lastOf('2020-02-02')).toBe('202002020000');
    expect((await history('2020-02-02')).frozenSince).toBe('202002011200');
    expect((await history('2020-02-01')).frozenSince).toBe('202002011200');
    // A new picture ends it.
    await capture('202002020010', false);
    await expect.poll(() => lastOf('2020-02-02')).toBe('202002020010');
    expect((await history('2020-02-02')).frozenSince).toBeNull();
    expect((await history('2020-02-03')).frozenSince).toBeNull();
  });

  it('does not seed twice and keeps data across a restart', async () => {
    await webcam.restart({ demoCameras: true });
    expect((await webcam.app.inject({ url: '/api/Webcam/GetCameras' })).json()).toHaveLength(DEMO_CAMERAS.length);
    const items = (await webcam.app.inject({ url: '/api/Webcam/GetImages' })).json<CameraListItem[]>();
    expect(items.find((i) => i.webcam.name === 'Maennedorf')?.images[0]?.name).toBe('209912312400');
  });

  it('answers health and readiness, and 404 with the uniform body', async () => {
    expect((await webcam.app.inject({ url: '/health' })).statusCode).toBe(200);
    const ready = await webcam.app.inject({ url: '/ready' });
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: true, bus: true } });
    const missing = await webcam.app.inject({ url: '/api/Webcam/Nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Route GET /api/Webcam/Nope not found',
    });
  });

  it('publishes its OpenAPI document', async () => {
    const doc = (await webcam.app.inject({ url: '/documentation/json' })).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/Webcam/GetImages', '/api/News/News/news']));
  });
});
