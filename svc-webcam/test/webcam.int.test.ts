import { CameraUpserted, ImageCaptured, ImagesThinned } from '@lakecams/contracts/messages';
import { createInProcessBus } from '@lakecams/bus';
import type { CameraListItem, Webcam } from '@lakecams/contracts';
import { buildServiceApp, createLogger, type ServiceApp } from '@lakecams/service-kit';
import { createTestDatabase } from '@lakecams/service-kit/testing';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webcamService } from '../src/app.ts';
import { DEMO_CAMERAS } from '../src/demo-cameras.ts';

describe('svc-webcam on real PostgreSQL', () => {
  const bus = createInProcessBus();
  let app: ServiceApp;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const upserted: Webcam[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('webcam');
    await bus.consume(
      (message) => {
        upserted.push(message.data as Webcam);
        message.ack();
      },
      { durable: 'test-camera-announcements', filter: CameraUpserted.subject },
    );
    app = await buildServiceApp(webcamService, {
      bus,
      logger: createLogger('silent'),
      databaseUrl: database.url,
      options: { demoCameras: true, demoSourceUrl: 'http://127.0.0.1:9/api/Image/DemoSource' },
    });
  });

  afterAll(async () => {
    await app?.close();
    await bus.close();
    await database?.drop();
  });

  it('serves the seeded demo cameras sorted by name, without images until svc-imaging captures', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/Webcam/GetCameras' });
    expect(response.statusCode).toBe(200);
    const cameras = response.json<Webcam[]>();
    expect(cameras.map((c) => c.name)).toEqual(DEMO_CAMERAS.map((c) => c.name).sort());
    const rapperswil = cameras.find((c) => c.name === 'Rapperswil-Seedamm');
    expect(rapperswil).toMatchObject({ distance: 6, angle: 70, intervalMin: 5, webcamType: 'STATIC' });
    // The source URL may carry credentials: the public never sees it; svc-imaging hears it on the bus.
    expect(rapperswil?.pattern).toBe('');
    await expect
      .poll(() => upserted.find((c) => c.name === 'Rapperswil-Seedamm')?.pattern)
      .toBe('http://127.0.0.1:9/api/Image/DemoSource/Rapperswil-Seedamm.jpg');
    // The list shows only cameras with an image.
    expect((await app.inject({ url: '/api/Webcam/GetImages' })).json()).toEqual([]);
  });

  it('filters by camera name', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/Webcam/GetCameras?name=Richterswil' });
    expect(response.json<Webcam[]>().map((c) => c.name)).toEqual(['Richterswil']);
    const none = await app.inject({ method: 'GET', url: '/api/Webcam/GetCameras?name=Nowhere' });
    expect(none.json()).toEqual([]);
  });

  it('rejects an over-long name filter with a 400 and the uniform error body', async () => {
    const response = await app.inject({ method: 'GET', url: `/api/Webcam/GetImages?name=${'x'.repeat(65)}` });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(response.json().message).toContain('name');
  });

  it('serves the news text as plain text', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/News/News/news' });
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

  it('re-points demo cameras at a new demo source on the next start', async () => {
    const before = upserted.length;
    await app.close();
    app = await buildServiceApp(webcamService, {
      bus,
      logger: createLogger('silent'),
      databaseUrl: database.url,
      options: { demoCameras: true, demoSourceUrl: 'http://127.0.0.1:7/api/Image/DemoSource' },
    });
    await expect.poll(() => upserted.length).toBe(before + DEMO_CAMERAS.length);
    expect(upserted.slice(before).find((c) => c.name === 'Richterswil')?.pattern).toBe(
      'http://127.0.0.1:7/api/Image/DemoSource/Richterswil.jpg',
    );
  });
  it('records image metadata published by svc-imaging as the latest image', async () => {
    const webcamId = (await app.inject({ url: '/api/Webcam/GetCameras?name=Maennedorf' })).json<Webcam[]>()[0]
      ?.id as number;
    await bus.publishEvent(ImageCaptured.subject, {
      webcamId,
      name: '209912312359',
      lat: 47.25,
      lng: 8.7,
      direction: 90,
    });
    await expect
      .poll(
        async () =>
          (await app.inject({ url: '/api/Webcam/GetImages?name=Maennedorf' })).json<CameraListItem[]>()[0]?.images[0],
      )
      .toEqual({ webcamId, name: '209912312359', lat: 47.25, lng: 8.7, direction: 90 });
  });

  it('serves the camera list from memory, gzip when asked, 304 for an unchanged one, fresh after a new image', async () => {
    const first = await app.inject({ url: '/api/Webcam/GetImages', headers: { 'accept-encoding': 'gzip, br' } });
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers.vary).toBe('Accept-Encoding');
    const items = JSON.parse(gunzipSync(first.rawPayload).toString()) as CameraListItem[];
    expect(items.map((i) => i.webcam.name)).toContain('Maennedorf');
    const plain = await app.inject({ url: '/api/Webcam/GetImages' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(items);
    const unchanged = await app.inject({
      url: '/api/Webcam/GetImages',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(unchanged.statusCode).toBe(304);
    // RFC 9110: weak comparison, a list, and * all name the current list.
    for (const condition of [`W/${first.headers.etag}`, `"x", ${first.headers.etag}`, '*']) {
      const conditional = await app.inject({ url: '/api/Webcam/GetImages', headers: { 'if-none-match': condition } });
      expect([conditional.statusCode, conditional.headers.etag], condition).toEqual([304, first.headers.etag]);
    }

    const webcamId = items.find((i) => i.webcam.name === 'Maennedorf')?.webcam.id as number;
    await bus.publishEvent(ImageCaptured.subject, {
      webcamId,
      name: '209912312400',
      lat: 47.25,
      lng: 8.7,
      direction: 91,
    });
    await expect
      .poll(
        async () => {
          const response = await app.inject({
            url: '/api/Webcam/GetImages',
            headers: { 'if-none-match': String(first.headers.etag) },
          });
          return (
            response.statusCode === 200 &&
            response.json<CameraListItem[]>().find((i) => i.webcam.id === webcamId)?.images[0]?.name
          );
        },
        { timeout: 1_000 },
      )
      .toBe('209912312400');
  });

  it("keeps each picture's score and forgets the pictures the archive thinned away", async () => {
    const webcamId = (await app.inject({ url: '/api/Webcam/GetCameras?name=Staefa-Kehlhof' })).json<
      { id: number }[]
    >()[0]?.id as number;
    const scores = { '202001011200': 40, '202001011220': 75.5, '202001011300': 60 };
    for (const [name, score] of Object.entries(scores)) {
      await bus.publishEvent(ImageCaptured.subject, { webcamId, name, lat: 47.2, lng: 8.7, direction: 1, score });
    }
    const history = async () =>
      (await app.inject({ url: '/api/Webcam/GetImageHistory?name=Staefa-Kehlhof&day=2020-01-01' }))
        .json<{ images: { name: string }[] }>()
        .images.map((image) => image.name);
    await expect.poll(history).toEqual(Object.keys(scores));
    const best = await app.inject({ url: '/api/Webcam/GetBestOf?name=Staefa-Kehlhof&day=2020-01-01' });
    expect(best.json()).toEqual({ name: '202001011220', score: 75.5, chosenBy: 'score' });
    await bus.publishEvent(ImagesThinned.subject, { webcamId, day: '20200101', keep: ['202001011220'] });
    await expect.poll(history).toEqual(['202001011220']);
    const days = await app.inject({ url: '/api/Webcam/GetImageDays?name=Staefa-Kehlhof&month=2020-01' });
    expect(days.json()).toMatchObject({ days: ['2020-01-01'], first: '2020-01-01' });
  });

  it('does not seed twice and keeps data across a restart', async () => {
    await app.close();
    app = await buildServiceApp(webcamService, {
      bus,
      logger: createLogger('silent'),
      databaseUrl: database.url,
      options: { demoCameras: true },
    });
    expect((await app.inject({ url: '/api/Webcam/GetCameras' })).json()).toHaveLength(DEMO_CAMERAS.length);
    const items = (await app.inject({ url: '/api/Webcam/GetImages' })).json<CameraListItem[]>();
    expect(items.find((i) => i.webcam.name === 'Maennedorf')?.images[0]?.name).toBe('209912312400');
  });

  it('answers health and readiness, and 404 with the uniform body', async () => {
    expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
    const ready = await app.inject({ url: '/ready' });
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: true, bus: true } });
    const missing = await app.inject({ url: '/api/Webcam/Nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Route GET /api/Webcam/Nope not found',
    });
  });

  it('publishes its OpenAPI document', async () => {
    const doc = (await app.inject({ url: '/documentation/json' })).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/Webcam/GetImages', '/api/News/News/news']));
  });
});
