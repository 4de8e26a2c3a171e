import { type CameraListItem, imageNameOf, SERVICES, SITE_NAME } from '@lakecams/contracts';
import { ImageCaptured } from '@lakecams/contracts/messages';
import { buildGateway, type ServiceTargets } from '@lakecams/gateway';
import {
  buildServiceApp,
  createKysely,
  createLogger,
  generateSigningKeys,
  publishEvent,
  type ServiceApp,
} from '@lakecams/service-kit';
import {
  type AntiForgeryPair,
  antiForgeryFrom,
  antiForgeryHeaders,
  TEST_DATABASE_SERVER,
  testDatabasePrefix,
} from '@lakecams/service-kit/testing';
import { captureTick, type Database as ImagingDatabase, imagingPartsOf } from '@lakecams/svc-imaging/testing';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { solveCaptcha } from '@lakecams/svc-identity/testing';
import { type RunningPortal, serviceOptionsFor, startPortal } from '../portal.ts';

/** A tiny front-end tree so the gateway's static serving is tested without a full build. */
async function fakeFrontendRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'lakecams-frontends-'));
  await mkdir(join(root, 'shell', 'dist'), { recursive: true });
  await writeFile(join(root, 'shell', 'dist', 'index.html'), '<!doctype html><title>shell</title>');
  await writeFile(join(root, 'shell', 'dist', 'main.0123456789abcdef.js'), 'console.log(1)');
  await mkdir(join(root, 'mf-map', 'dist'), { recursive: true });
  await writeFile(join(root, 'mf-map', 'dist', 'mf-manifest.json'), '{"id":"mf_map"}');
  return root;
}

describe('embedded portal: gateway and four services in one process, real PostgreSQL', () => {
  const databases = testDatabasePrefix();
  let portal: RunningPortal;
  let frontendRoot: string;

  beforeAll(async () => {
    frontendRoot = await fakeFrontendRoot();
    portal = await startPortal({
      port: 0,
      logLevel: 'silent',
      databaseServerUrl: TEST_DATABASE_SERVER,
      databasePrefix: databases.prefix,
      frontendRoot,
      remotes: { mf_admin: 'https://admin.example.org/mf-manifest.json' },
      schedule: false,
      demoBackfillMinutes: 20,
      mapTiles: { url: 'http://127.0.0.1:9/tiles/{z}/{x}/{y}.png', attribution: 'Test tiles' },
    });
  });

  afterAll(async () => {
    await portal?.close();
    await databases.dropAll(SERVICES);
    await rm(frontendRoot, { recursive: true, force: true });
  });

  it('routes /api/<Controller> to the owning service', { timeout: 150_000 }, async () => {
    // The demo cameras get their first pictures from svc-imaging in the background: eight captures with all
    // their levels and formats, which a busy machine may take a minute or more for.
    await expect
      .poll(
        async () => ((await (await fetch(`${portal.url}/api/Webcam/GetImages`)).json()) as CameraListItem[]).length,
        { timeout: 120_000, interval: 500 },
      )
      .toBe(8);
    const news = await fetch(`${portal.url}/api/News/News/news`);
    expect(await news.text()).toContain('Zürichsee');
  });

  it('answers an unknown controller with a JSON 404', async () => {
    const response = await fetch(`${portal.url}/api/Unknown/thing`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'No service answers /api/Unknown/thing',
    });
  });

  it('passes a service 400 through unchanged', async () => {
    const response = await fetch(`${portal.url}/api/Webcam/GetImages?name=${'x'.repeat(80)}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  });

  it('is healthy, and ready only when every service is', async () => {
    expect((await fetch(`${portal.url}/health`)).status).toBe(200);
    const ready = await fetch(`${portal.url}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { 'svc-identity': true, 'svc-webcam': true, 'svc-referer': true, 'svc-imaging': true },
    });
  });

  it('serves /remotes.json from configuration', async () => {
    const response = await fetch(`${portal.url}/remotes.json`);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.json()).toEqual({
      mf_map: '/remotes/mf-map/mf-manifest.json',
      mf_account: '/remotes/mf-account/mf-manifest.json',
      mf_admin: 'https://admin.example.org/mf-manifest.json',
    });
  });

  it('serves remotes under their prefix with CORS, and hashed files as immutable', async () => {
    const manifest = await fetch(`${portal.url}/remotes/mf-map/mf-manifest.json`);
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('access-control-allow-origin')).toBe('*');
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    const chunk = await fetch(`${portal.url}/main.0123456789abcdef.js`);
    expect(chunk.headers.get('cache-control')).toContain('immutable');
  });

  it("falls back to the shell's index.html for unknown pages, not for files or APIs", async () => {
    for (const path of ['/webcams', '/webcam/Richterswil', '/some/unknown/page']) {
      const response = await fetch(`${portal.url}${path}`);
      expect(response.status, path).toBe(200);
      const html = await response.text();
      // A page carries its own title (gateway page-meta.ts): a camera page's once the camera is known, /webcams its
      // table's; an unknown page keeps the shell's.
      const titles: Record<string, string> = {
        '/webcams': `${SITE_NAME} – Alle Webcams`,
        '/webcam/Richterswil': `(shell|${SITE_NAME} – Richterswil)`,
        '/some/unknown/page': 'shell',
      };
      expect(html).toMatch(new RegExp(`<title>${titles[path]}</title>`));
    }
    expect((await fetch(`${portal.url}/missing.js`)).status).toBe(404);
    expect((await fetch(`${portal.url}/api/Webcam/Missing`)).status).toBe(404);
  });

  it('serves the page settings with the configured map tiles', async () => {
    expect(await (await fetch(`${portal.url}/config.json`)).json()).toEqual({
      mapTiles: { url: 'http://127.0.0.1:9/tiles/{z}/{x}/{y}.png', attribution: 'Test tiles' },
    });
  });

  it("serves a camera's image history of a day, its pictures, cameras by name and id, and the pages list", async () => {
    await expect
      .poll(
        async () =>
          (
            (await (await fetch(`${portal.url}/api/Webcam/GetImageHistory?name=Richterswil`)).json()) as {
              images: unknown[];
            }
          ).images.length,
        { timeout: 60_000 },
      )
      .toBeGreaterThanOrEqual(2);
    const history = (await (await fetch(`${portal.url}/api/Webcam/GetImageHistory?name=Richterswil`)).json()) as {
      camera: string;
      day: string;
      days: string[];
      images: { name: string }[];
    };
    expect(history.camera).toBe('Richterswil');
    expect(history.days).toContain(history.day);
    const names = history.images.map((i) => i.name);
    expect(names).toEqual([...names].sort());
    // Through the gateway: the entitlement's redirect, then the picture by its name, routed to svc-imaging.
    const picture = await fetch(`${portal.url}/api/Image/Get/camera/Richterswil/${names[0]}.jpg`);
    expect(picture.status).toBe(200);
    expect(picture.redirected).toBe(true);
    expect(new URL(picture.url).pathname).toMatch(
      new RegExp(`^/pictures/Richterswil/${names[0]}-POOR-[0-9a-f]{12}\\.jpg$`),
    );
    expect(picture.headers.get('content-type')).toBe('image/jpeg');
    expect(picture.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    await picture.arrayBuffer();
    expect((await fetch(`${portal.url}/api/Webcam/GetImageHistory?name=Nowhere`)).status).toBe(404);
    expect((await fetch(`${portal.url}/api/Webcam/GetImageHistory?name=Richterswil&day=22.11.2026`)).status).toBe(400);

    const [camera] = (await (await fetch(`${portal.url}/api/Webcam/GetCameras?name=Richterswil`)).json()) as {
      id: number;
    }[];
    const byId = await fetch(`${portal.url}/api/Webcam/GetCameraById?id=${camera?.id}`);
    expect(((await byId.json()) as { name: string }).name).toBe('Richterswil');
    expect((await fetch(`${portal.url}/api/Webcam/GetCameraById?id=99999`)).status).toBe(404);
    expect((await fetch(`${portal.url}/api/Webcam/GetCameraById?id=abc`)).status).toBe(400);
    expect(await (await fetch(`${portal.url}/api/Referer/GetPagesUses/PageUser`)).json()).toEqual([]);
    // The size of the full image, answered by svc-imaging through svc-referer (signed-in users).
    expect((await fetch(`${portal.url}/api/Referer/GetCameraInfo?cameraId=${camera?.id}`)).status).toBe(401);
  });

  it("keeps the demo cameras' source inside svc-imaging: nothing serves it, and the demo cameras still capture", async () => {
    // A 2560×1440 picture rendered per request, at no quality anybody is entitled to: not through the gateway.
    const source = await fetch(`${portal.url}/api/Image/DemoSource/Richterswil.jpg`);
    expect(source.status).toBe(404);
    await source.arrayBuffer();
    // A capture as the schedule makes it, through svc-imaging's own pipeline, two days back (no backfill there).
    const imaging = portal.services.imaging;
    const camera = await imagingPartsOf(imaging).cameraDirectory.byName('Richterswil');
    if (!camera) throw new Error('Richterswil is not known to svc-imaging');
    const tick = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 2 * 24 * 60 * 60_000);
    const outcome = await captureTick(imagingPartsOf(imaging).capture.context, camera, tick);
    expect(outcome).toMatchObject({ outcome: 'captured' });
    const picture = await fetch(`${portal.url}/api/Image/Get/camera/Richterswil/${imageNameOf(tick)}.jpg`);
    expect([picture.status, picture.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    await picture.arrayBuffer();
  });

  it('streams new images to open pages as server-sent events', async () => {
    const controller = new AbortController();
    const response = await fetch(`${portal.url}/api/Events/stream`, { signal: controller.signal });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    // The stream never ends by itself: closed however the test ends.
    onTestFinished(() => controller.abort());
    const [camera] = (await (await fetch(`${portal.url}/api/Webcam/GetCameras?name=Richterswil`)).json()) as {
      id: number;
    }[];
    if (!camera) throw new Error('Richterswil is not listed');
    const image = { webcamId: camera.id, name: '209901010000', lat: 47.2, lng: 8.7, direction: 10 };
    // As svc-imaging announces a capture (its outbox, in its database); open pages hear of it once svc-webcam's
    // list shows it.
    const imagingDb = createKysely<ImagingDatabase>({ connectionString: portal.databaseUrls.imaging });
    onTestFinished(() => imagingDb.destroy());
    await imagingDb.transaction().execute((trx) => publishEvent(trx, ImageCaptured, image));
    let received = '';
    // Other demo pictures may arrive first.
    while (!received.includes(JSON.stringify(image))) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`The event stream ended before the picture was announced: ${received}`);
      received += new TextDecoder().decode(value);
    }
    expect(received).toContain(`data: ${JSON.stringify(image)}`);
    controller.abort();
    const listed = (await (await fetch(`${portal.url}/api/Webcam/GetImages?name=Richterswil`)).json()) as {
      images: { name: string }[];
    }[];
    expect(listed[0]?.images[0]?.name).toBe('209901010000');
  });

  it('serves no Prometheus metrics on its public port (they are on METRICS_PORT, monitoring.int.test.ts)', async () => {
    expect((await fetch(`${portal.url}/metrics`)).status).toBe(404);
  });
});

describe('gateway in distributed mode: services behind HTTP', () => {
  const databases = testDatabasePrefix();
  const logger = createLogger('silent');
  const services: ServiceApp[] = [];
  let gatewayUrl: string;
  let gateway: Awaited<ReturnType<typeof buildGateway>>;

  beforeAll(async () => {
    const { createInProcessBus } = await import('@lakecams/bus');
    const bus = createInProcessBus();
    const { SERVICE_DEFINITIONS } = await import('../services.ts');
    const targets = {} as ServiceTargets;
    const keys = generateSigningKeys();
    const serviceOptions = serviceOptionsFor({
      jwtPrivateKey: keys.privateKey,
      outboxDir: join(tmpdir(), `lakecams-outbox-${databases.prefix}`),
      publicUrl: () => gatewayUrl,
      imageStoreDir: join(tmpdir(), `lakecams-images-${databases.prefix}`),
      schedule: false,
      demoBackfillMinutes: 0,
    });
    for (const service of SERVICES) {
      const app = await buildServiceApp(SERVICE_DEFINITIONS[service], {
        bus,
        logger,
        databaseUrl: databases.urlOf(service),
        jwtPublicKey: keys.publicKey,
        options: serviceOptions[service],
      });
      services.push(app);
      // Two replicas for imaging: the gateway spreads requests over both.
      const url = await app.listen({ host: '127.0.0.1', port: 0 });
      targets[service] = { kind: 'remote', urls: service === 'imaging' ? [url, 'http://127.0.0.1:9'] : [url] };
    }
    gateway = await buildGateway({ logger, targets, frontendRoot: tmpdir(), remotes: {} });
    gatewayUrl = await gateway.listen({ host: '127.0.0.1', port: 0 });
  });

  afterAll(async () => {
    await gateway?.close();
    for (const app of services) await app.close();
    await databases.dropAll(SERVICES);
  });

  it('proxies API calls to the owning service', async () => {
    const response = await fetch(`${gatewayUrl}/api/Webcam/GetCameras?name=Richterswil`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { name: string }[])[0]?.name).toBe('Richterswil');
  });

  it('passes request bodies on to the service, unread', async () => {
    const page = await fetch(`${gatewayUrl}/health`);
    const antiForgery = antiForgeryHeaders(antiForgeryFrom(page.headers.getSetCookie()) as AntiForgeryPair);
    const login = await fetch(`${gatewayUrl}/api/Authenticate/Authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...antiForgery },
      body: JSON.stringify({ username: 'nobody_here', password: 'Wrong!Pass1' }),
    });
    // An empty body would be 400 (username and password required); these credentials are simply wrong.
    expect(login.status).toBe(401);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/jpeg' }), 'x.jpg');
    const upload = await fetch(`${gatewayUrl}/api/Referer/SetLayer/layer`, {
      method: 'POST',
      headers: antiForgery,
      body: form,
    });
    expect(upload.status).toBe(401);
  });

  it('is ready while at least one replica of each service is', async () => {
    expect((await fetch(`${gatewayUrl}/ready`)).status).toBe(200);
  });

  it('answers 503 with a clear message when a replica is unreachable', async () => {
    const statuses = [];
    for (let i = 0; i < 2; i++) statuses.push((await fetch(`${gatewayUrl}/api/Image/Get/camera/X.jpg`)).status);
    expect(statuses).toContain(503);
  });

  it('is not ready when a service is down', async () => {
    await services[SERVICES.indexOf('imaging')]?.close();
    const ready = await fetch(`${gatewayUrl}/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { checks: Record<string, boolean> }).checks['svc-imaging']).toBe(false);
  });
});

describe('security rules every service shares, through the gateway', () => {
  const databases = testDatabasePrefix();
  let portal: RunningPortal;
  const admin = { username: 'securityadmin', email: 'security@example.org', password: 'Adm1n!Secret' };

  beforeAll(async () => {
    portal = await startPortal({
      port: 0,
      logLevel: 'silent',
      databaseServerUrl: TEST_DATABASE_SERVER,
      databasePrefix: databases.prefix,
      frontendRoot: tmpdir(),
      admin,
      schedule: false,
      demoBackfillMinutes: 0,
    });
  });
  afterAll(async () => {
    await portal?.close();
    await databases.dropAll(SERVICES);
  });

  it('refuses a mutating API request without the matching anti-forgery header', async () => {
    const page = await fetch(`${portal.url}/health`);
    const { cookie, token } = antiForgeryFrom(page.headers.getSetCookie()) as AntiForgeryPair;
    expect(cookie).toMatch(/^lakecams_sid=[\w-]{43}; XSRF-TOKEN=[\w-]{32}\.[\w-]{43}$/);
    // Pictures, embedded by partner pages and cached publicly, set no cookie: neither the picture URL nor the
    // picture names it redirects to. The rule is the path's (this portal has no picture yet, so both are 404).
    for (const path of [
      '/api/Image/Get/camera/Richterswil.jpg',
      '/pictures/Richterswil/202611250500-POOR-0123456789ab.jpg',
    ]) {
      const picture = await fetch(`${portal.url}${path}`, { redirect: 'manual' });
      expect([path, picture.status]).toEqual([path, 404]);
      expect(picture.headers.getSetCookie(), path).toEqual([]);
      await picture.arrayBuffer();
    }
    const body = JSON.stringify({ username: admin.username, password: admin.password });
    const post = (headers: Record<string, string>) =>
      fetch(`${portal.url}/api/Authenticate/Authenticate`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', ...headers },
      });
    const none = await post({});
    expect(none.status).toBe(403);
    expect(await none.json()).toMatchObject({ message: 'Missing or invalid anti-forgery token' });
    expect((await post({ cookie, 'x-xsrf-token': 'forged-value-forged-value' })).status).toBe(403);
    expect((await post({ 'x-xsrf-token': token })).status).toBe(403);
    expect((await post({ cookie, 'x-xsrf-token': token })).status).toBe(200);
  });

  it('answers 403 to a non-admin sending Impersonate, on every service', async () => {
    const { createTestClient } = await import('@lakecams/service-kit/testing');
    const client = createTestClient(portal.url);
    const someone = '00000000-0000-4000-8000-000000000001';
    const routes = {
      identity: '/api/Authenticate/Roles/roles',
      webcam: '/api/Webcam/GetImages',
      referer: '/api/Referer/GetRefererOfUser/ofUser',
      imaging: '/api/Image/Get/camera/Richterswil.jpg',
    };
    for (const [service, route] of Object.entries(routes)) {
      const anonymous = await client.get(route, { impersonate: someone });
      expect(anonymous.status, `${service} anonymous`).toBe(403);
      expect(anonymous.json.message).toBe('Only administrators may impersonate');
    }
    // A confirmed user without the Admin role, registered with a solved captcha and confirmed by the admin.
    const adminClient = createTestClient(portal.url);
    adminClient.setToken((await adminClient.post('/api/Authenticate/Authenticate', admin)).json.jwtToken);
    const user = createTestClient(portal.url);
    const password = 'Seeblick!2026';
    const model = {
      firstname: 'Rita',
      lastname: 'Referer',
      email: 'rita@example.org',
      username: 'rita_user',
      password,
      passwordConfirm: password,
      phoneNumber: '079 123 45 67',
    };
    const captcha = await solveCaptcha(portal.url, 'register');
    expect((await user.post(`/api/Register/Register?captcha=${captcha}`, model)).status).toBe(200);
    const users = (await adminClient.get('/api/Authenticate/AllUsers')).json as { id: string; userName: string }[];
    const ritaId = users.find((u) => u.userName === 'rita_user')?.id as string;
    expect((await adminClient.post(`/api/Code/AuthenticateUser?userGuid=${ritaId}`)).text).toBe('true');
    user.setToken(
      (await user.post('/api/Authenticate/Authenticate', { username: model.username, password })).json.jwtToken,
    );
    for (const [service, route] of Object.entries(routes)) {
      const refused = await user.get(route, { impersonate: someone });
      expect(refused.status, `${service} user`).toBe(403);
    }
    // A signed-in user learns the size of a camera's full image (svc-referer asks svc-imaging).
    const [richterswil] = (await user.get('/api/Webcam/GetCameras?name=Richterswil')).json as { id: number }[];
    await expect
      .poll(async () => (await user.get(`/api/Referer/GetCameraInfo?cameraId=${richterswil?.id}`)).json)
      .toEqual({ width: 2560, height: 1440 });
    expect((await user.get('/api/Referer/GetCameraInfo?cameraId=99999')).status).toBe(404);
    // The admin may act as the user on every service.
    adminClient.impersonate(ritaId);
    expect((await adminClient.get(routes.identity)).status).toBe(200);
    expect((await adminClient.get(routes.webcam)).status).toBe(200);
    expect((await adminClient.get(routes.referer)).json).toEqual([]);
  });
});
