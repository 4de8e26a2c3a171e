import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Answer } from './http.ts';
import {
  actorOf,
  authorize,
  createMatrixContext,
  isServiceRoute,
  type MatrixContext,
  ROUTE_ACCESS,
  type Role,
} from './route-access.ts';
import { expectOk, type Fixtures, type SecurityPortal, setUpFixtures, startSecurityPortal } from './security-portal.ts';

/** A camera's source URL as a camera owner may give it: with the camera's login. */
const SOURCE = 'https://cam-login:Kamera-7qZ-geheim@cam.example.org/snap.jpg';
// The login's own words, not "password": the API reference names password fields.
const SECRETS = [SOURCE, 'Kamera-7qZ-geheim', 'cam.example.org'];

/** Everybody but an Admin acting as itself: none of them may see a camera's source. */
const NOT_ADMIN: Role[] = ['anonymous', 'user', 'referer', 'adminAsReferer'];

let p: SecurityPortal;
let f: Fixtures;
let m: MatrixContext;

beforeAll(async () => {
  p = await startSecurityPortal();
  f = await setUpFixtures(p);
  m = await createMatrixContext(p, f);
  // The referer's booked camera gets a source with credentials, and the plain user permission on it.
  const camera = await p.as(p.admin, { method: 'GET', path: `/api/Webcam/GetCameraById?id=${f.camera.id}` });
  const { id, name, distance, angle, intervalMin, webcamType } = (await expectOk(camera, 'camera')).json;
  const saved = await p.as(p.admin, {
    method: 'POST',
    path: '/api/Webcam/Set',
    json: { id, name, pattern: SOURCE, distance, angle, intervalMin, webcamType },
  });
  await expectOk(saved, 'camera source');
  await expectOk(
    await p.as(p.admin, {
      method: 'POST',
      path: `/api/Webcam/SetUsers/users?webcamId=${f.camera.id}`,
      json: [f.user.id],
    }),
    'permission',
  );
}, 120_000);
afterAll(async () => p?.close());

const leaks = (answer: Answer) => {
  const text = `${JSON.stringify(answer.headers)}\n${answer.text}`;
  return SECRETS.filter((secret) => text.includes(secret));
};

describe("a camera's source URL", () => {
  it('reaches nobody but an Admin acting as itself, on any route the running apps registered', async () => {
    const found: string[] = [];
    // Which routes answered with the camera at all: the walk must have seen it where cameras are listed.
    const shown = new Set<string>();
    const routes = p.routes.filter((r) => isServiceRoute(r.url) && r.method !== 'HEAD');
    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      const access = ROUTE_ACCESS[key];
      expect(access, `${key} has no entry in ROUTE_ACCESS`).toBeDefined();
      if (!access) continue;
      for (const role of NOT_ADMIN) {
        const actor = actorOf(m, role);
        const prepared = await access.build(m, actor);
        const answer = await p.call(authorize(m, { ...prepared, method: route.method }, actor));
        prepared.after?.(answer);
        const leaked = leaks(answer);
        if (leaked.length) found.push(`${role} ${key} → ${answer.status}: ${leaked.join(', ')}`);
        if (answer.status === 200 && answer.text.includes(`"${f.camera.name}"`)) shown.add(`${role} ${key}`);
      }
    }
    expect(found).toEqual([]);
    expect([...shown]).toEqual(
      expect.arrayContaining([
        'anonymous GET /api/Webcam/GetImages',
        'anonymous GET /api/Webcam/GetCameras',
        'anonymous GET /api/Webcam/GetCameraById',
        'user GET /api/Webcam/GetReferersofUser/referersOfUSer',
        'referer GET /api/Referer/GetCameras/Cameras',
        'adminAsReferer GET /api/Referer/GetCameras/Cameras',
      ]),
    );
  }, 300_000);

  it('is shown to an Admin acting as itself where the camera administration edits it', async () => {
    const cameras = await p.as(p.admin, { method: 'GET', path: `/api/Webcam/GetCameras?name=${f.camera.name}` });
    expect(cameras.json).toEqual([expect.objectContaining({ id: f.camera.id, pattern: SOURCE })]);
    const camera = await p.as(p.admin, { method: 'GET', path: `/api/Webcam/GetCameraById?id=${f.camera.id}` });
    expect(camera.json.pattern).toBe(SOURCE);
    // Acting as somebody else, the admin sees what that user sees.
    const asUser = { impersonate: f.user.id };
    const acting = await p.as(p.admin, { method: 'GET', path: '/api/Webcam/GetCameras', headers: asUser });
    expect(leaks(acting)).toEqual([]);
  });
});
