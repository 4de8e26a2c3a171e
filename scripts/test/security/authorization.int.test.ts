import { ACCESS_COOKIE } from '@lakecams/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Answer, RequestSpec } from './http.ts';
import {
  type Actor,
  actorOf,
  authorize,
  createMatrixContext,
  expectedStatuses,
  isServiceRoute,
  type MatrixContext,
  NOT_API_ROUTES,
  type Prepared,
  refusalBeforeInput,
  ROLES,
  ROUTE_ACCESS,
  type RouteAccess,
  withInvalidInput,
} from './route-access.ts';
import {
  type Account,
  expectOk,
  type Fixtures,
  layerUpload,
  type SecurityPortal,
  setUpFixtures,
  startSecurityPortal,
  testPng,
} from './security-portal.ts';

let p: SecurityPortal;
let f: Fixtures;
let m: MatrixContext;

beforeAll(async () => {
  p = await startSecurityPortal();
  f = await setUpFixtures(p);
  m = await createMatrixContext(p, f);
}, 120_000);
afterAll(async () => p?.close());

/** A 4xx/5xx must be the uniform error body with a message. */
function errorBodyProblem(answer: Answer, method: string): string | null {
  if (answer.status < 400 || method === 'HEAD') return null;
  const body = answer.json as { statusCode?: unknown; message?: unknown } | undefined;
  if (body?.statusCode !== answer.status || typeof body.message !== 'string' || body.message === '') {
    return `error body without statusCode/message: ${answer.text.slice(0, 200)}`;
  }
  return null;
}

async function run(key: string, access: RouteAccess, actor: Actor, method: string, expected: number[]) {
  const prepared: Prepared = await access.build(m, actor);
  const answer = await p.call(authorize(m, { ...prepared, method }, actor));
  prepared.after?.(answer);
  const problems: string[] = [];
  if (!expected.includes(answer.status)) {
    problems.push(`expected ${expected.join('|')}, got ${answer.status} ${answer.text.slice(0, 200)}`);
  }
  const bodyProblem = errorBodyProblem(answer, method);
  if (bodyProblem) problems.push(bodyProblem);
  const who = `${actor.role}${actor.viaCookie ? ' (access cookie)' : ''}`;
  return problems.map((problem) => `${who} ${method} ${key.split(' ')[1]} → ${problem}`);
}

describe('authorization matrix: every route of every service × every kind of caller, through the gateway', () => {
  it('has an access rule for every route the running apps registered', () => {
    const missing: string[] = [];
    const cookieMismatch: string[] = [];
    for (const route of p.routes) {
      if (!isServiceRoute(route.url)) {
        if (!(route.url in NOT_API_ROUTES))
          missing.push(`${route.app}: ${route.method} ${route.url} (not under /api or /pictures)`);
        continue;
      }
      const key = `${route.method === 'HEAD' ? 'GET' : route.method} ${route.url}`;
      const access = ROUTE_ACCESS[key];
      if (!access) {
        missing.push(`${route.app}: ${route.method} ${route.url}`);
        continue;
      }
      if ((access.cookieAuth ?? false) !== route.acceptsAccessCookie) {
        cookieMismatch.push(
          `${key}: table says cookieAuth=${access.cookieAuth ?? false}, route accepts the cookie: ${route.acceptsAccessCookie}`,
        );
      }
    }
    // A HEAD route stands for its GET (the keys say GET); Fastify may register only the HEAD of a prefix's root.
    const registered = new Set(p.routes.map((r) => `${r.method === 'HEAD' ? 'GET' : r.method} ${r.url}`));
    const stale = Object.keys(ROUTE_ACCESS).filter((key) => !registered.has(key));
    const apiRoutes = p.routes.filter((r) => isServiceRoute(r.url));
    console.log(
      `[authorization] routes found: ${p.routes.length} in 5 apps, of them ${apiRoutes.length} under /api and /pictures ` +
        `(${apiRoutes.filter((r) => r.method !== 'HEAD').length} + ${apiRoutes.filter((r) => r.method === 'HEAD').length} HEAD)`,
    );
    expect(missing, 'routes without an entry in ROUTE_ACCESS (add one: who may call it?)').toEqual([]);
    expect(cookieMismatch).toEqual([]);
    expect(stale, 'entries for routes that no longer exist').toEqual([]);
  });

  it('answers each route with the expected status for each caller', async () => {
    const failures: string[] = [];
    let checks = 0;
    const apiRoutes = p.routes.filter((r) => isServiceRoute(r.url));
    for (const route of apiRoutes) {
      const key = `${route.method === 'HEAD' ? 'GET' : route.method} ${route.url}`;
      const access = ROUTE_ACCESS[key];
      if (!access) continue;
      for (const role of ROLES) {
        failures.push(...(await run(key, access, actorOf(m, role), route.method, expectedStatuses(access, role))));
        checks++;
      }
      // The access cookie authenticates only on routes that opt in; elsewhere the caller counts as anonymous.
      if (access.rule === 'refresh-cookie') continue;
      for (const role of ['user', 'referer', 'admin'] as const) {
        const expected = expectedStatuses(access, access.cookieAuth ? role : 'anonymous');
        failures.push(...(await run(key, access, actorOf(m, role, true), route.method, expected)));
        checks++;
      }
    }
    console.log(
      `[authorization] matrix: ${apiRoutes.length} routes × ${ROLES.length} callers (bearer) + 3 callers with the access cookie = ${checks} requests checked`,
    );
    expect(failures).toEqual([]);
  }, 300_000);

  it('refuses unfit callers with 401/403 before it looks at the input: invalid query strings and bodies', async () => {
    const failures: string[] = [];
    let checks = 0;
    for (const route of p.routes.filter((r) => isServiceRoute(r.url) && r.method !== 'HEAD')) {
      const key = `${route.method} ${route.url}`;
      const access = ROUTE_ACCESS[key];
      if (!access) continue;
      for (const role of ROLES) {
        const expected = refusalBeforeInput(access, role);
        if (expected === null) continue;
        const actor = actorOf(m, role);
        const invalid = withInvalidInput(await access.build(m, actor));
        const answer = await p.call(authorize(m, { ...invalid, method: route.method }, actor));
        checks++;
        const problem =
          answer.status !== expected
            ? `expected ${expected}, got ${answer.status} ${answer.text.slice(0, 200)}`
            : errorBodyProblem(answer, route.method);
        if (problem) failures.push(`${role} ${key} with invalid input → ${problem}`);
      }
    }
    console.log(`[authorization] unfit callers with invalid input: ${checks} requests checked`);
    expect(checks).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  }, 300_000);
});

describe('object-level checks', () => {
  let other: Account;
  let otherUrl: string;
  let otherLayerId: number;
  let otherBookingId: number;

  beforeAll(async () => {
    other = await p.registerUser('other_referer');
    otherUrl = 'https://other-partner.example.org/';
    await expectOk(
      await p.as(p.admin, { method: 'PUT', path: '/api/Referer/Set', json: { url: otherUrl, userEmail: other.email } }),
      'other url',
    );
    const list = await p.as(p.admin, { method: 'GET', path: '/api/Referer/GetRefererUsers' });
    const otherRefererId = (list.json as { id: number; url: string }[]).find((r) => r.url === otherUrl)?.id;
    const booking = await p.as(p.admin, {
      method: 'PUT',
      path: `/api/Webcam/SetReferer/referer?webcamId=${f.camera.id}`,
      json: { start: '2020-01-01', end: '2099-12-31', quality: 'LOW', refererUserId: otherRefererId },
    });
    otherBookingId = (await expectOk(booking, 'other booking')).json.id;
    const deadline = Date.now() + 15_000;
    for (;;) {
      const layer = await p.as(other, layerUpload(otherUrl, f.camera.id, await testPng()));
      if (layer.status === 200) {
        otherLayerId = Number(layer.text);
        break;
      }
      if (Date.now() > deadline) throw new Error(`other layer: ${layer.status} ${layer.text}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 60_000);

  const layerCount = () => p.count('referer', 'layers');
  const getLayer = (url: string) =>
    `/api/Referer/GetLayer/layer?url=${encodeURIComponent(url)}&level=BASE&cameraId=${f.camera.id}`;

  it("refuses a referer user another referer's url, layers and bookings", async () => {
    const { referer } = f;
    const before = await layerCount();
    const refused: [string, RequestSpec][] = [
      ['GetLayer on the other url', { method: 'GET', path: getLayer(otherUrl) }],
      ['SetLayer on the other url', layerUpload(otherUrl, f.camera.id, await testPng())],
      [
        "SetLayer overwriting the other's layer by id",
        layerUpload(f.refererUrl, f.camera.id, await testPng(), { id: String(otherLayerId) }),
      ],
      [
        "DeleteLayer of the other's layer",
        { method: 'DELETE', path: `/api/Referer/DeleteLayer/layer?layerId=${otherLayerId}&cameraId=${f.camera.id}` },
      ],
      [
        "GetLayerImage of the other's layer",
        {
          method: 'GET',
          path: `/api/Referer/GetLayerImage/layerimage?layerId=${otherLayerId}&cameraId=${f.camera.id}`,
        },
      ],
      ['SetLayer on a camera not booked for the own url', layerUpload(f.refererUrl, f.spareCamera.id, await testPng())],
      [
        "RemoveReferer of the other's booking",
        {
          method: 'DELETE',
          path: `/api/Webcam/RemoveReferer/referer?webcamId=${f.camera.id}&refererId=${otherBookingId}`,
        },
      ],
      [
        "SetReferer changing the other's booking",
        {
          method: 'PUT',
          path: `/api/Webcam/SetReferer/referer?webcamId=${f.camera.id}`,
          json: { id: otherBookingId, start: '2020-01-01', end: '2020-01-02', quality: 'FULL' },
        },
      ],
    ];
    for (const [what, spec] of refused) {
      const answer = await p.as(referer, spec);
      expect(answer.status, `${what}: ${answer.text}`).toBe(403);
      expect(answer.json?.message, what).toBeTruthy();
    }
    expect(await layerCount()).toBe(before);
    const bookings = await p.as(p.admin, {
      method: 'GET',
      path: `/api/Webcam/GetReferers/referers?webcamId=${f.camera.id}`,
    });
    expect((bookings.json as { id: number; quality: string }[]).find((b) => b.id === otherBookingId)?.quality).toBe(
      'LOW',
    );
    // Lists show only the own pages and the cameras booked for them.
    const own = (await p.as(referer, { method: 'GET', path: '/api/Referer/GetReferers' })).json as { url: string }[];
    expect(own.map((r) => r.url)).toEqual([f.refererUrl]);
    const ofUser = (await p.as(referer, { method: 'GET', path: '/api/Referer/GetRefererOfUser/ofUser' })).json;
    expect((ofUser as { url: string }[]).map((r) => r.url)).toEqual([f.refererUrl]);
    const cameras = await p.as(referer, {
      method: 'GET',
      path: `/api/Referer/GetCameras/Cameras?url=${encodeURIComponent(otherUrl)}`,
    });
    expect(cameras.json).toEqual([]);
    const layers = await p.as(referer, { method: 'GET', path: getLayer(f.refererUrl) });
    expect((layers.json as { id: number }[]).map((l) => l.id)).not.toContain(otherLayerId);
  });

  it("refuses a plain user the referer's layers, also by cookie", async () => {
    const { user, referer } = f;
    const layerImage = `/api/Referer/GetLayerImage/layerimage?layerId=${f.layerId}&cameraId=${f.camera.id}`;
    const refused: [string, RequestSpec][] = [
      ['GetLayer', { method: 'GET', path: getLayer(f.refererUrl) }],
      ['SetLayer', layerUpload(f.refererUrl, f.camera.id, await testPng())],
      [
        'DeleteLayer',
        { method: 'DELETE', path: `/api/Referer/DeleteLayer/layer?layerId=${f.layerId}&cameraId=${f.camera.id}` },
      ],
      ['GetLayerImage', { method: 'GET', path: layerImage }],
    ];
    for (const [what, spec] of refused) expect((await p.as(user, spec)).status, what).toBe(403);
    const byCookie = await p.call({
      method: 'GET',
      path: layerImage,
      headers: { cookie: `${ACCESS_COOKIE}=${user.accessCookie}` },
    });
    expect(byCookie.status).toBe(403);
    const ownerByCookie = await p.call({
      method: 'GET',
      path: layerImage,
      headers: { cookie: `${ACCESS_COOKIE}=${referer.accessCookie}` },
    });
    expect(ownerByCookie.status).toBe(200);
    expect(ownerByCookie.headers['content-type']).toBe('image/png');
  });

  it('gives an admin impersonating a user that user’s rights on objects', async () => {
    const asUser = { impersonate: f.user.id };
    expect((await p.as(p.admin, { method: 'GET', path: getLayer(f.refererUrl), headers: asUser })).status).toBe(403);
    const del = `/api/Referer/DeleteLayer/layer?layerId=${f.layerId}&cameraId=${f.camera.id}`;
    expect((await p.as(p.admin, { method: 'DELETE', path: del, headers: asUser })).status).toBe(403);
    const codes = await p.as(p.admin, { method: 'GET', path: '/api/Code/GetCodes', headers: asUser });
    expect((codes.json as { id: string }[]).map((c) => c.id)).not.toContain(f.refererCodeAssignmentId);
    const roles = await p.as(p.admin, { method: 'GET', path: '/api/Authenticate/Roles/roles', headers: asUser });
    expect(roles.json).not.toContain('Admin');
    // The same admin acting as itself may do all of it.
    expect((await p.as(p.admin, { method: 'GET', path: getLayer(f.refererUrl) })).status).toBe(200);
  });

  it("refuses a user another user's code assignment, without revealing it", async () => {
    const { user, referer } = f;
    const answer = await p.as(user, {
      method: 'DELETE',
      path: `/api/Code/RemoveCodeAssignement?codeAssignementGuid=${f.refererCodeAssignmentId}`,
    });
    expect(answer.status).toBe(404);
    expect(answer.json.message).toBe('Code assignment not found');
    const mine = (await p.as(user, { method: 'GET', path: '/api/Code/GetCodes' })).json as { id: string }[];
    expect(mine.map((c) => c.id)).not.toContain(f.refererCodeAssignmentId);
    const theirs = (await p.as(referer, { method: 'GET', path: '/api/Code/GetCodes' })).json as { id: string }[];
    expect(theirs.map((c) => c.id)).toContain(f.refererCodeAssignmentId);
    // Only an admin removes it from the system, and only together with the right user.
    const wrongUser = await p.as(p.admin, {
      method: 'DELETE',
      path: `/api/Code/RemoveCodeAssignementFromSystem?userGuid=${user.id}&codeAssignementGuid=${f.refererCodeAssignmentId}`,
    });
    expect(wrongUser.status).toBe(404);
    expect(await p.count('identity', 'code_assignments', `id = '${f.refererCodeAssignmentId}'`)).toBe(1);
  });
});

describe('pictures by their immutable names', () => {
  const fetchPicture = (path: string, headers: Record<string, string> = {}) => p.call({ method: 'GET', path, headers });

  it('need no credentials, only the signed link above the public level; unknown names are 404', async () => {
    // The referer's page is booked at HIGH with a layer: its visitors are sent to a signed name of its own.
    const page = await fetchPicture(`/api/Image/Get/camera/${f.camera.name}.jpg`, { referer: f.refererUrl });
    expect([page.status, page.headers['x-image-quality']]).toEqual([302, 'HIGH; referer booking']);
    expect(page.headers['cache-control']).toMatch(/^private, /);
    expect(page.headers['set-cookie']).toBeUndefined();
    const link = new URL(String(page.headers.location), p.url);
    expect(link.pathname).toMatch(
      new RegExp(`^/pictures/${f.camera.name}/${f.imageName}-HIGH-[0-9a-f]{12}-p[0-9a-f]{12}-[0-9a-f]{12}\\.jpg$`),
    );
    expect(link.search).toMatch(/^\?e=\d+&s=[\w-]{32}$/);
    const signed = `${link.pathname}${link.search}`;

    // The link alone opens it, the same bytes whoever holds it; no caller's token or cookie changes them.
    const anonymous = await fetchPicture(signed);
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers['x-image-quality']).toBe('HIGH');
    expect(anonymous.headers['cache-control']).toMatch(/^public, max-age=\d+, immutable$/);
    expect([anonymous.headers.vary, anonymous.headers['set-cookie']]).toEqual([undefined, undefined]);
    for (const role of ['user', 'referer', 'admin'] as const) {
      for (const viaCookie of [false, true]) {
        const answer = await p.call(authorize(m, { method: 'GET', path: signed }, actorOf(m, role, viaCookie)));
        expect(answer.status, role).toBe(200);
        expect(answer.body.equals(anonymous.body), role).toBe(true);
      }
    }

    // Without its signature, with a forged one, or with another name's: 403, for an admin too.
    const refused: [string, string][] = [
      ['unsigned', link.pathname],
      ['forged', `${link.pathname}?e=${link.searchParams.get('e')}&s=${'A'.repeat(32)}`],
      [
        'expiry moved',
        `${link.pathname}?e=${Number(link.searchParams.get('e')) + 600}&s=${link.searchParams.get('s')}`,
      ],
      ['raised to FULL', `${link.pathname.replace('-HIGH-', '-FULL-')}${link.search}`],
      ['another page', `${link.pathname.replace(/-p[0-9a-f]{12}-/, `-p${'0'.repeat(12)}-`)}${link.search}`],
      ['public level with the layers', `${link.pathname.replace('-HIGH-', '-POOR-')}`],
    ];
    for (const [what, path] of refused) {
      for (const caller of [null, p.admin]) {
        const answer = await p.as(caller, { method: 'GET', path });
        expect([what, answer.status], answer.text).toEqual([what, 403]);
        expect(answer.json.message).toMatch(/^This picture link is not signed for this level/);
      }
    }

    // The public level's name needs no signature: one URL for everybody, cached for good.
    const everybody = await fetchPicture(f.picturePath);
    expect([everybody.status, everybody.headers['x-image-quality']]).toEqual([200, 'POOR']);
    expect(everybody.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(everybody.headers.etag).toBe(`"${f.picturePath.split('/').pop()}"`);
    expect((await fetchPicture(f.picturePath, { 'if-none-match': String(everybody.headers.etag) })).status).toBe(304);

    // Names of no picture: 404, however close to a real one.
    const file = String(f.picturePath.split('/').pop());
    for (const path of [
      `/pictures/${f.camera.name}/nonsense.jpg`,
      `/pictures/Nirgendwo/${file}`,
      `/pictures/${f.camera.name}/${file.replace(/-POOR-[0-9a-f]{12}/, '-POOR-000000000000')}`,
      `/pictures/${f.camera.name}/${file.replace(f.imageName, '209901010000')}`,
      `/pictures/${f.camera.name}/${file.replace(/\.jpg$/, '.png')}`,
      `/pictures/${f.camera.name}/${file}/more`,
      `/pictures/${f.camera.name}`,
    ]) {
      const answer = await fetchPicture(path);
      expect([path, answer.status]).toEqual([path, 404]);
      expect(errorBodyProblem(answer, 'GET'), path).toBeNull();
    }
  });
});
