import { type Bus, createNatsBus } from '@lakecams/bus';
import { type ServiceName, SERVICES } from '@lakecams/contracts';
import { buildServiceApp, createLogger, generateSigningKeys, type ServiceApp } from '@lakecams/service-kit';
import {
  createTestClient,
  TEST_DATABASE_SERVER,
  TEST_NATS_URL,
  testDatabasePrefix,
} from '@lakecams/service-kit/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPortal, serviceOptionsFor, startPortal } from '../../portal.ts';
import { SERVICE_DEFINITIONS } from '../../services.ts';

const ADMIN = { username: 'logoffadmin', email: 'log-off-admin@example.org', password: 'Adm1n!Secret' };
const REVOKED = 'The access token was revoked (logged off)';
/** An admin route of svc-identity and a user route of svc-webcam. */
const IDENTITY_ROUTE = '/api/Authenticate/AllUsers';
const WEBCAM_ROUTE = '/api/Webcam/GetReferersofUser/referersOfUSer';

type Client = ReturnType<typeof createTestClient>;

/** Logs the admin in through `identityUrl`: the client keeps the cookies and sends the access token. */
async function loggedIn(identityUrl: string): Promise<{ client: Client; token: string }> {
  const client = createTestClient(identityUrl);
  const login = await client.post('/api/Authenticate/Authenticate', ADMIN);
  expect(login.status, login.text).toBe(200);
  client.setToken(login.json.jwtToken);
  return { client, token: login.json.jwtToken };
}

async function statusWith(baseUrl: string, token: string, route: string) {
  const client = createTestClient(baseUrl);
  client.setToken(token);
  return client.get(route);
}

/** Log in twice, log one login off: its old token is refused on both services, the other login keeps working. */
async function logOffAndCheck(urls: { identity: string; webcam: string }, how: 'browser' | 'bearer only' = 'browser') {
  const leaving = await loggedIn(urls.identity);
  const staying = await loggedIn(urls.identity);
  const routes: [string, string][] = [
    [urls.identity, IDENTITY_ROUTE],
    [urls.webcam, WEBCAM_ROUTE],
  ];
  for (const [url, route] of routes) expect((await statusWith(url, leaving.token, route)).status, route).toBe(200);

  // The page sends its cookies and token; an API client may send only the token.
  const logOff =
    how === 'browser'
      ? await leaving.client.get('/api/Authenticate/LogOut/logout')
      : await statusWith(urls.identity, leaving.token, '/api/Authenticate/LogOut/logout');
  expect(logOff.status).toBe(200);
  // That login's refresh token cannot mint a new access token either.
  expect((await leaving.client.post('/api/Authenticate/RefreshToken')).status).toBe(401);

  for (const [url, route] of routes) {
    // Other services learn of it over the bus, within moments.
    await expect.poll(async () => (await statusWith(url, leaving.token, route)).status, { timeout: 15_000 }).toBe(401);
    expect((await statusWith(url, leaving.token, route)).json).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: REVOKED,
    });
    expect((await statusWith(url, staying.token, route)).status, `${route}, other login`).toBe(200);
  }
  return leaving.token;
}

/**
 * Log in twice, refresh one login, replay its first refresh token: that login's access tokens (from before and
 * from the refresh) are refused on both services, the other login keeps working.
 */
async function reuseAndCheck(urls: { identity: string; webcam: string }) {
  const victim = await loggedIn(urls.identity);
  const staying = await loggedIn(urls.identity);
  const firstRefreshToken = victim.client.cookies.get('refreshToken') as string;
  const refreshed = await victim.client.post('/api/Authenticate/RefreshToken');
  expect(refreshed.status, refreshed.text).toBe(200);
  const tokens = [victim.token, refreshed.json.jwtToken as string];
  const routes: [string, string][] = [
    [urls.identity, IDENTITY_ROUTE],
    [urls.webcam, WEBCAM_ROUTE],
  ];
  for (const [url, route] of routes) expect((await statusWith(url, victim.token, route)).status, route).toBe(200);

  const thief = createTestClient(urls.identity);
  thief.cookies.set('refreshToken', firstRefreshToken);
  const reuse = await thief.post('/api/Authenticate/RefreshToken');
  expect([reuse.status, reuse.json.message]).toEqual([401, 'Refresh token was already used; please log in again']);

  for (const [url, route] of routes) {
    for (const token of tokens) {
      await expect.poll(async () => (await statusWith(url, token, route)).status, { timeout: 15_000 }).toBe(401);
      expect((await statusWith(url, token, route)).json.message, route).toBe(REVOKED);
    }
    expect((await statusWith(url, staying.token, route)).status, `${route}, other login`).toBe(200);
  }
}

describe('embedded mode: the in-process bus, through the gateway', () => {
  const databases = testDatabasePrefix();
  let portal: RunningPortal;

  beforeAll(async () => {
    portal = await startPortal({
      port: 0,
      logLevel: 'silent',
      databaseServerUrl: TEST_DATABASE_SERVER,
      databasePrefix: databases.prefix,
      frontendRoot: tmpdir(),
      admin: ADMIN,
      schedule: false,
      demoBackfillMinutes: 0,
    });
  }, 60_000);
  afterAll(async () => {
    await portal?.close();
    await databases.dropAll(SERVICES);
  });

  it('log-off revokes the access token of that login on every service', async () => {
    await logOffAndCheck({ identity: portal.url, webcam: portal.url });
  });

  it('log-off with only the bearer token revokes that token and its login too', async () => {
    await logOffAndCheck({ identity: portal.url, webcam: portal.url }, 'bearer only');
  });

  it('a reused refresh token revokes the access tokens of its login on every service', async () => {
    await reuseAndCheck({ identity: portal.url, webcam: portal.url });
  });

  it('answers 404 to an Admin impersonating a user nobody knows, before the route does anything', async () => {
    const { client } = await loggedIn(portal.url);
    const before = (await client.get('/api/Authenticate/AllUsers')).json;
    client.impersonate('0f0f0f0f-0000-4000-8000-00000000abcd');
    for (const [method, route] of [
      ['GET', '/api/Authenticate/Roles/roles'],
      ['GET', WEBCAM_ROUTE],
      ['GET', '/api/Referer/GetRefererOfUser/ofUser'],
      ['POST', '/api/Register/Update'],
    ] as const) {
      const answer =
        method === 'GET'
          ? await client.get(route)
          : await client.post(route, { firstName: 'Nie', lastName: 'Mand', phoneNumber: '079 123 45 67' });
      expect([answer.status, answer.json], route).toEqual([
        404,
        { statusCode: 404, error: 'Not Found', message: 'No such user' },
      ]);
    }
    client.impersonate(undefined);
    expect((await client.get('/api/Authenticate/AllUsers')).json).toEqual(before);
  });
});

describe('log-off and refresh-token reuse in distributed mode: separate service apps on NATS', () => {
  const databases = testDatabasePrefix();
  const namespace = `logoff_${randomBytes(4).toString('hex')}`;
  const keys = generateSigningKeys();
  const logger = createLogger('silent');
  const scratch = join(tmpdir(), `lakecams-log-off-${namespace}`);
  const options = serviceOptionsFor({
    admin: ADMIN,
    demoCameras: false,
    jwtPrivateKey: keys.privateKey,
    outboxDir: join(scratch, 'outbox'),
    publicUrl: () => 'http://localhost:8080',
    imageStoreDir: join(scratch, 'images'),
    schedule: false,
  });
  const running: { app: ServiceApp; bus: Bus }[] = [];

  /** One more replica of `service` with a NATS connection of its own, listening on a free port. */
  async function replica(service: ServiceName): Promise<string> {
    const bus = await createNatsBus({ servers: TEST_NATS_URL, name: `log-off-${service}`, namespace, logger });
    const app = await buildServiceApp(SERVICE_DEFINITIONS[service], {
      bus,
      logger,
      databaseUrl: databases.urlOf(service),
      jwtPublicKey: keys.publicKey,
      options: options[service],
    });
    running.push({ app, bus });
    return app.listen({ host: '127.0.0.1', port: 0 });
  }

  afterAll(async () => {
    for (const { app, bus } of running.reverse()) {
      await app.close();
      await bus.close();
    }
    await databases.dropAll(['identity', 'webcam']);
    const nc = await connect({ servers: TEST_NATS_URL });
    await (await jetstreamManager(nc)).streams.delete(`LAKECAMS_${namespace}`).catch(() => false);
    await nc.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('revokes it on running replicas, and replicas started afterwards know it before they serve', async () => {
    const identity = await replica('identity');
    const webcam = await replica('webcam');
    const token = await logOffAndCheck({ identity, webcam });

    const [lateIdentity, lateWebcam] = [await replica('identity'), await replica('webcam')];
    for (const [url, route] of [
      [lateIdentity, IDENTITY_ROUTE],
      [lateWebcam, WEBCAM_ROUTE],
    ] as const) {
      const late = await statusWith(url, token, route);
      expect([late.status, late.json.message], `${route} on a later replica`).toEqual([401, REVOKED]);
    }
  }, 60_000);

  it('a reused refresh token revokes the access tokens of its login on every service', async () => {
    await reuseAndCheck({ identity: await replica('identity'), webcam: await replica('webcam') });
  }, 60_000);
});
