import { ACCESS_COOKIE, REFRESH_COOKIE, SERVICES, type ServiceName } from '@lakecams/contracts';
import { loadOrCreateSigningKeys, type SigningKeys } from '@lakecams/service-kit';
import { type AntiForgeryPair, TEST_DATABASE_SERVER, testDatabasePrefix } from '@lakecams/service-kit/testing';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { linkIn, waitForMail } from '../../../e2e/mail-outbox.ts';
import { solveCaptcha } from '@lakecams/svc-identity/testing';
import { type RunningPortal, startPortal } from '../../portal.ts';
import {
  type Answer,
  antiForgeryToken,
  isSafeMethod,
  queryString,
  type RequestSpec,
  send,
  setCookieValue,
  withAntiForgery,
} from './http.ts';

/** A route as the running app registered it. */
export interface CollectedRoute {
  app: ServiceName | 'gateway';
  method: string;
  url: string;
  acceptsAccessCookie: boolean;
}

/**
 * Every route of every Fastify instance created from now on, seen by an `onRoute` hook that is added the
 * moment the instance is created (Fastify's `fastify.initialization` diagnostics channel), so a route added
 * to any service later is collected without anybody listing it.
 */
function collectRoutes() {
  const seen = new Map<FastifyInstance, RouteOptions[]>();
  const onInit = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    const routes: RouteOptions[] = [];
    seen.set(fastify, routes);
    fastify.addHook('onRoute', (route) => {
      routes.push(route);
    });
  };
  subscribe('fastify.initialization', onInit);
  return {
    stop: () => unsubscribe('fastify.initialization', onInit),
    of(portal: RunningPortal): CollectedRoute[] {
      const apps: [ServiceName | 'gateway', FastifyInstance][] = [
        ...SERVICES.map((s) => [s, portal.services[s]] as [ServiceName, FastifyInstance]),
        ['gateway', portal.gateway],
      ];
      return apps.flatMap(([name, app]) => {
        const routes = seen.get(app);
        if (!routes) throw new Error(`No routes were collected from ${name}: was it created before collecting began?`);
        return routes.flatMap((route) =>
          [route.method].flat().map((method) => ({
            app: name,
            method,
            url: route.url,
            acceptsAccessCookie: route.config?.acceptsAccessCookie === true,
          })),
        );
      });
    },
  };
}

export interface Account {
  id: string;
  userName: string;
  email: string;
  password: string;
  /** Bearer access token. */
  token: string;
  /** The same token as the httpOnly cookie `lakecams_access` (pictures, job dashboard). */
  accessCookie: string;
  /** The refresh cookie, kept current as refreshes rotate it. */
  refreshCookie: string;
}

export interface SecurityPortal {
  portal: RunningPortal;
  url: string;
  routes: CollectedRoute[];
  keys: SigningKeys;
  /** The anti-forgery cookies and token of this suite's browser. */
  xsrf: AntiForgeryPair;
  admin: Account;
  /** Sends through the gateway; non-GET/HEAD requests get the matching anti-forgery cookie and header. */
  call(spec: RequestSpec): Promise<Answer>;
  /** Like `call` with the account's bearer token. */
  as(account: Account | null, spec: RequestSpec): Promise<Answer>;
  registerUser(name: string): Promise<Account>;
  login(userName: string, password: string): Promise<Account>;
  count(service: ServiceName, table: string, where?: string): Promise<number>;
  close(): Promise<void>;
}

const PASSWORD = 'Seeblick!2026';

/** One embedded portal for one test file: real PostgreSQL on 127.0.0.1:5432, fresh databases, in-process bus. */
export async function startSecurityPortal(
  options: { rateLimitPerMinute?: number; withShellPage?: boolean } = {},
): Promise<SecurityPortal> {
  const databases = testDatabasePrefix();
  const dataDir = await mkdtemp(join(tmpdir(), 'lakecams-security-'));
  if (options.withShellPage) {
    // A built shell, as a deployed gateway has: unknown pages then answer with it.
    await mkdir(join(dataDir, 'shell', 'dist'), { recursive: true });
    await writeFile(join(dataDir, 'shell', 'dist', 'index.html'), '<!doctype html><title>shell</title>');
  }
  // The portal loads this key, so the suites can sign tokens of their own (expired, odd claims).
  const keys = await loadOrCreateSigningKeys(join(dataDir, 'jwt-signing-key.pem'));
  const adminCredentials = { username: 'securityadmin', email: 'security-admin@example.org', password: PASSWORD };
  const collector = collectRoutes();
  let portal: RunningPortal;
  try {
    portal = await startPortal({
      port: 0,
      logLevel: process.env.SECURITY_LOG_LEVEL ?? 'silent',
      databaseServerUrl: TEST_DATABASE_SERVER,
      databasePrefix: databases.prefix,
      dataDir,
      frontendRoot: dataDir,
      admin: adminCredentials,
      schedule: false,
      demoBackfillMinutes: 0,
      rateLimitPerMinute: options.rateLimitPerMinute ?? 1_000_000,
    });
  } finally {
    collector.stop();
  }
  const url = portal.url;
  const routes = collector.of(portal);
  const xsrf = await antiForgeryToken(url);
  const pools = new Map<ServiceName, pg.Pool>();

  const call = (spec: RequestSpec) =>
    send(url, isSafeMethod(spec.method) ? spec : { ...spec, headers: withAntiForgery(xsrf, spec.headers) });
  const as = (account: Account | null, spec: RequestSpec) =>
    call(account ? { ...spec, headers: { authorization: `Bearer ${account.token}`, ...spec.headers } } : spec);

  async function login(userName: string, password: string): Promise<Account> {
    const answer = await call({
      method: 'POST',
      path: '/api/Authenticate/Authenticate',
      json: { username: userName, password },
    });
    if (answer.status !== 200) throw new Error(`Login of ${userName}: ${answer.status} ${answer.text}`);
    return {
      id: answer.json.id,
      userName,
      email: answer.json.email,
      password,
      token: answer.json.jwtToken,
      accessCookie: setCookieValue(answer, ACCESS_COOKIE) ?? '',
      refreshCookie: setCookieValue(answer, REFRESH_COOKIE) ?? '',
    };
  }

  /** Register with a solved captcha and confirm with the token from the mail, as a visitor does. */
  async function registerUser(name: string): Promise<Account> {
    const email = `${name}@example.org`;
    const model = {
      firstname: 'Test',
      lastname: name,
      email,
      username: name,
      password: PASSWORD,
      passwordConfirm: PASSWORD,
      phoneNumber: '079 123 45 67',
    };
    const captcha = await solveCaptcha(url, 'register');
    const registered = await call({ method: 'POST', path: `/api/Register/Register?captcha=${captcha}`, json: model });
    if (registered.status !== 200) throw new Error(`Register ${name}: ${registered.status} ${registered.text}`);
    const link = linkIn(await waitForMail(portal.outboxDir, email, 'Registrierung'), '/confirmRegistration');
    const confirmed = await call({
      method: 'PUT',
      path: `/api/RegisterConfirm/Confirm${queryString({
        userEmail: email,
        token: link.searchParams.get('token') ?? '',
      })}`,
    });
    if (confirmed.status !== 200) throw new Error(`Confirm ${name}: ${confirmed.status} ${confirmed.text}`);
    return login(name, PASSWORD);
  }

  async function count(service: ServiceName, table: string, where = 'true'): Promise<number> {
    let pool = pools.get(service);
    if (!pool) {
      pool = new pg.Pool({ connectionString: portal.databaseUrls[service], max: 2 });
      pools.set(service, pool);
    }
    const result = await pool.query(`select count(*)::int as n from ${table} where ${where}`);
    return result.rows[0].n as number;
  }

  const admin = await login(adminCredentials.username, adminCredentials.password);
  return {
    portal,
    url,
    routes,
    keys,
    xsrf,
    admin,
    call,
    as,
    registerUser,
    login,
    count,
    async close() {
      for (const pool of pools.values()) await pool.end();
      await portal.close();
      await databases.dropAll(SERVICES);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A real JPEG of the given size (a gradient, so it compresses like a picture). */
export async function testJpeg(width = 640, height = 360): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 110, b: 170 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** A small PNG with transparency, as a layer image. */
export async function testPng(width = 64, height = 36): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0.5 } } })
    .png()
    .toBuffer();
}

/**
 * What the matrix and the bad-input suite act on: a plain confirmed user, a referer user (a url set by the
 * admin, a booking of a camera for that url, a layer on it, a redeemed Referer code) and a bystander whose
 * email receives the admin's throw-away referer urls.
 */
export interface Fixtures {
  user: Account;
  referer: Account;
  bystander: Account;
  refererUrl: string;
  refererUserId: number;
  camera: { id: number; name: string };
  imageName: string;
  /** That picture's immutable name at the public level (POOR), where the entitlement URL sends everybody. */
  picturePath: string;
  bookingId: number;
  layerId: number;
  refererCodeAssignmentId: string;
  /** A camera of the admin's own for changes that must not disturb the others (permissions, bookings, deletes). */
  spareCamera: { id: number; name: string };
}

export async function expectOk(answer: Answer, what: string): Promise<Answer> {
  if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${answer.text}`);
  return answer;
}

export async function createCamera(p: SecurityPortal, name: string): Promise<{ id: number; name: string }> {
  await expectOk(
    await p.as(p.admin, {
      method: 'POST',
      path: '/api/Webcam/Set',
      json: { name, pattern: 'http://127.0.0.1:9/camera.jpg', distance: 2, angle: 60, intervalMin: 10 },
    }),
    `create camera ${name}`,
  );
  const [camera] = (await p.call({ method: 'GET', path: `/api/Webcam/GetCameras?name=${name}` })).json as {
    id: number;
  }[];
  if (!camera) throw new Error(`camera ${name} not listed`);
  // Other services hear of it over the bus: svc-imaging's routes (uploads, jobs) need it known there.
  await eventually(
    () => p.count('imaging', 'cameras', `webcam_id = ${Number(camera.id)}`),
    `svc-imaging to know ${name}`,
  );
  return { id: camera.id, name };
}

/** Waits until `check` passes (bus events reach other services asynchronously). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, what: string): Promise<T> {
  // Generous: a busy machine delays the bus, and the check passes as soon as it can.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function setUpFixtures(p: SecurityPortal): Promise<Fixtures> {
  const user = await p.registerUser('plain_user');
  const referer = await p.registerUser('referer_user');
  const bystander = await p.registerUser('bystander');
  const refererUrl = 'https://partner.example.org/seeblick';
  // svc-referer learns users from identity's events.
  const setReferer = await eventually(async () => {
    const answer = await p.as(p.admin, {
      method: 'PUT',
      path: '/api/Referer/Set',
      json: { url: refererUrl, userEmail: referer.email },
    });
    return answer.status === 200 ? answer : null;
  }, 'svc-referer to know the referer user');
  const refererUserId = (setReferer.json as { id: number; url: string }[]).find((r) => r.url === refererUrl)
    ?.id as number;

  const [richterswil] = (await p.call({ method: 'GET', path: '/api/Webcam/GetCameras?name=Richterswil' })).json as {
    id: number;
  }[];
  const camera = { id: richterswil?.id as number, name: 'Richterswil' };
  const today = new Date().toISOString().slice(0, 10);
  const booking = await expectOk(
    await p.as(p.admin, {
      method: 'PUT',
      path: `/api/Webcam/SetReferer/referer?webcamId=${camera.id}`,
      json: { start: '2020-01-01', end: '2099-12-31', quality: 'HIGH', refererUserId },
    }),
    `booking (${today})`,
  );
  // One picture, uploaded by hand, so image routes and GetCameraInfo have something to serve.
  const upload = await eventually(async () => {
    const answer = await p.as(p.admin, {
      method: 'POST',
      path: `/api/Image/Upload?webcamId=${camera.id}`,
      multipart: [{ name: 'file', file: { filename: 'x.jpg', contentType: 'image/jpeg', bytes: await testJpeg() } }],
    });
    return answer.status === 200 ? answer : null;
  }, 'svc-imaging to know the camera');
  void upload;
  const current = await p.call({ method: 'GET', path: `/api/Image/Get/camera/${camera.name}.jpg` });
  const imageName = current.headers['x-image-name'] as string;
  const picturePath = String(current.headers.location);
  if (current.status !== 302 || !picturePath.startsWith(`/pictures/${camera.name}/${imageName}-POOR-`))
    throw new Error(`current picture: ${current.status} ${picturePath}`);
  const layer = await eventually(async () => {
    const answer = await p.as(referer, layerUpload(refererUrl, camera.id, await testPng()));
    return answer.status === 200 ? answer : null;
  }, 'the booking to reach svc-referer');
  const [code] = (
    await expectOk(
      await p.as(p.admin, { method: 'POST', path: '/api/Code/CreateCodes?feature=Referer&count=1' }),
      'create code',
    )
  ).json as string[];
  const assignment = await expectOk(
    await p.as(referer, { method: 'POST', path: `/api/Code/RegisterCode?code=${encodeURIComponent(code ?? '')}` }),
    'redeem code',
  );
  const spareCamera = await createCamera(p, 'Security-Spare');
  return {
    user,
    referer,
    bystander,
    refererUrl,
    refererUserId,
    camera,
    imageName,
    picturePath,
    bookingId: booking.json.id,
    layerId: Number(layer.text),
    refererCodeAssignmentId: assignment.json.id,
    spareCamera,
  };
}

/** The multipart SetLayer request of the configure-referer page. */
export function layerUpload(url: string, cameraId: number, png: Buffer, extra: Record<string, string> = {}) {
  const fields = {
    url,
    level: 'BASE',
    id: '',
    enabled: 'true',
    cron: '* * * * *',
    cameraId: String(cameraId),
    ...extra,
  };
  return {
    method: 'POST',
    path: '/api/Referer/SetLayer/layer',
    multipart: [
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      { name: 'file', file: { filename: 'layer.png', contentType: 'image/png', bytes: png } },
    ],
  } satisfies RequestSpec;
}

/** Rows that rejected requests must leave alone, by service and table. */
export const STORED_STATE: readonly (readonly [ServiceName, string])[] = [
  ['identity', 'users'],
  ['identity', 'user_roles'],
  ['identity', 'codes'],
  ['identity', 'code_assignments'],
  ['identity', 'password_resets'],
  ['identity', 'email_confirmations'],
  ['webcam', 'webcams'],
  ['webcam', 'webcam_images'],
  ['webcam', 'camera_permissions'],
  ['webcam', 'camera_configurations'],
  ['webcam', 'referer_bookings'],
  ['referer', 'referer_users'],
  ['referer', 'layers'],
  ['imaging', 'cameras'],
  ['imaging', 'captures'],
  ['imaging', 'layers'],
];

export async function snapshot(p: SecurityPortal): Promise<Record<string, number | string>> {
  // Events of earlier requests may still be on their way (outboxes, consumers): wait until the
  // outboxes are empty and two reads agree, so counts do not change under the next test's feet.
  let previous = '';
  for (let attempt = 0; ; attempt++) {
    const state = await readState(p);
    const pending = await Promise.all(
      Object.values(p.portal.services).map((service) => service.outboxPending?.() ?? Promise.resolve(0)),
    );
    const key = JSON.stringify(state);
    if ((pending.every((n) => n === 0) && key === previous) || attempt >= 50) return state;
    previous = key;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function readState(p: SecurityPortal): Promise<Record<string, number | string>> {
  const state: Record<string, number | string> = {};
  for (const [service, table] of STORED_STATE) state[`${service}.${table}`] = await p.count(service, table);
  state.news = (await p.call({ method: 'GET', path: '/api/News/News/news' })).text;
  return state;
}
