import { AccessRevoked } from '@lakecams/contracts/messages';
import { createInProcessBus } from '@lakecams/bus';
import { ACCESS_COOKIE, IMPERSONATE_COOKIE } from '@lakecams/contracts';
import { createSigner } from 'fast-jwt';
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROLE, buildServiceApp, createLogger, type ServiceApp } from '../src/index.ts';
import { createRevokedAccess } from '../src/revoked-access.ts';

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const sign = createSigner({
  key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  algorithm: 'EdDSA',
  expiresIn: 60_000,
});
const ADMIN = '11111111-1111-4111-8111-111111111111';
const USER = '22222222-2222-4222-8222-222222222222';
const UNKNOWN = '33333333-3333-4333-8333-333333333333';
const adminToken = sign({ sub: ADMIN, role: [ADMIN_ROLE] });
const userToken = sign({ sub: USER, role: 'User' });

/** A service with public, user, admin and cookie-authenticated routes that knows ADMIN and USER. */
function probeApp(bus: ReturnType<typeof createInProcessBus>): Promise<ServiceApp> {
  return buildServiceApp(
    {
      name: 'probe',
      version: '0',
      plugin: async (instance) => {
        instance.useUserDirectory(async (id) => id === ADMIN || id === USER);
        instance.get('/who', async (request) => request.principal);
        instance.get('/picture', { config: { acceptsAccessCookie: true } }, async (request) => request.principal);
        instance.get('/admin', { preHandler: instance.requireRole(ADMIN_ROLE) }, async () => 'ok');
        instance.get('/mine', { preHandler: instance.requireUser }, async () => 'ok');
      },
    },
    {
      bus,
      logger: createLogger('silent'),
      jwtPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    },
  );
}

describe('access tokens and the impersonation rule', () => {
  const bus = createInProcessBus();
  let app: ServiceApp;

  beforeAll(async () => {
    app = await probeApp(bus);
  });
  afterAll(async () => {
    await app.close();
    await bus.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  it('treats a request without token as anonymous', async () => {
    expect((await get('/who')).body).toBe('null');
    expect((await get('/mine')).statusCode).toBe(401);
    expect((await get('/admin')).statusCode).toBe(401);
  });

  it('reads the user and roles from a valid token', async () => {
    expect((await get('/who', { authorization: `Bearer ${userToken}` })).json()).toEqual({
      userId: USER,
      roles: ['User'],
      actingUserId: USER,
    });
    expect((await get('/admin', { authorization: `Bearer ${userToken}` })).statusCode).toBe(403);
    expect((await get('/admin', { authorization: `Bearer ${adminToken}` })).statusCode).toBe(200);
  });

  it('answers 401 to a forged or malformed token where a user is needed, and serves public routes', async () => {
    const { privateKey: other } = generateKeyPairSync('ed25519');
    const forged = createSigner({ key: other.export({ type: 'pkcs8', format: 'pem' }).toString(), algorithm: 'EdDSA' })(
      {
        sub: ADMIN,
        role: ADMIN_ROLE,
      },
    );
    const response = await get('/mine', { authorization: `Bearer ${forged}` });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'Invalid or expired access token',
    });
    expect((await get('/admin', { authorization: 'Bearer nonsense' })).statusCode).toBe(401);
    const publicRoute = await get('/who', { authorization: `Bearer ${forged}` });
    expect([publicRoute.statusCode, publicRoute.body]).toEqual([200, 'null']);
  });

  it('answers 401, not 403, when an expired token comes with Impersonate', async () => {
    const key = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const expired = createSigner({ key, algorithm: 'EdDSA', expiresIn: 1 })({ sub: ADMIN, role: [ADMIN_ROLE] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await get('/who', { authorization: `Bearer ${expired}`, impersonate: USER })).statusCode).toBe(401);
  });

  it('lets an Admin act as another user', async () => {
    const response = await get('/who', { authorization: `Bearer ${adminToken}`, impersonate: USER });
    expect(response.json()).toEqual({ userId: ADMIN, roles: [ADMIN_ROLE], actingUserId: USER });
  });

  it('answers 403 to anybody else sending Impersonate', async () => {
    expect((await get('/who', { authorization: `Bearer ${userToken}`, impersonate: ADMIN })).statusCode).toBe(403);
    const anonymous = await get('/who', { impersonate: ADMIN });
    expect(anonymous.statusCode).toBe(403);
    expect(anonymous.json().message).toBe('Only administrators may impersonate');
  });

  it('answers 400 when an Admin impersonates something that is not a user id', async () => {
    expect((await get('/who', { authorization: `Bearer ${adminToken}`, impersonate: '../etc' })).statusCode).toBe(400);
  });

  it('answers 404 when an Admin impersonates a user the service does not know', async () => {
    const response = await get('/who', { authorization: `Bearer ${adminToken}`, impersonate: UNKNOWN });
    expect([response.statusCode, response.json()]).toEqual([
      404,
      { statusCode: 404, error: 'Not Found', message: 'No such user' },
    ]);
  });

  it("follows an Admin's impersonation cookie on cookie-authenticated reads, and nobody else's", async () => {
    const cookie = (token: string, acting: string) => ({
      cookie: `${ACCESS_COOKIE}=${token}; ${IMPERSONATE_COOKIE}=${acting}`,
    });
    expect((await get('/picture', cookie(adminToken, USER))).json()).toEqual({
      userId: ADMIN,
      roles: [ADMIN_ROLE],
      actingUserId: USER,
    });
    // A plain user's cookie, an unknown user and a route without the access cookie leave the caller itself.
    expect((await get('/picture', cookie(userToken, ADMIN))).json()).toMatchObject({ actingUserId: USER });
    expect((await get('/picture', cookie(adminToken, UNKNOWN))).json()).toMatchObject({ actingUserId: ADMIN });
    expect((await get('/picture', cookie(adminToken, 'not-a-user'))).json()).toMatchObject({ actingUserId: ADMIN });
    const bearer = await get('/picture', {
      authorization: `Bearer ${adminToken}`,
      cookie: `${IMPERSONATE_COOKIE}=${USER}`,
    });
    expect(bearer.json()).toMatchObject({ actingUserId: ADMIN });
  });
});

describe('revoked access tokens', () => {
  const bus = createInProcessBus();
  const apps: ServiceApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
    await bus.close();
  });

  it('refuses a token whose id or session was revoked, on running replicas and on ones started later', async () => {
    const running = await probeApp(bus);
    apps.push(running);
    const loggedOff = sign({ sub: USER, role: 'User', jti: 'token-1', sid: 'session-1' });
    const sameSession = sign({ sub: USER, role: 'User', jti: 'token-2', sid: 'session-1' });
    const other = sign({ sub: USER, role: 'User', jti: 'token-3', sid: 'session-2' });
    const status = (replica: ServiceApp, token: string, cookie = false) =>
      replica
        .inject({
          method: 'GET',
          url: cookie ? '/picture' : '/mine',
          headers: cookie ? { cookie: `${ACCESS_COOKIE}=${token}` } : { authorization: `Bearer ${token}` },
        })
        .then((response) => (cookie ? (response.json() ? 200 : 401) : response.statusCode));
    expect(await status(running, loggedOff)).toBe(200);

    await bus.publishEvent(AccessRevoked.subject, {
      ids: ['token-1', 'session-1'],
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    const deadline = Date.now() + 5_000;
    while ((await status(running, loggedOff)) !== 401 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const refused = await running.inject({
      method: 'GET',
      url: '/mine',
      headers: { authorization: `Bearer ${loggedOff}` },
    });
    expect(refused.json()).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'The access token was revoked (logged off)',
    });
    expect(await status(running, sameSession)).toBe(401);
    expect(await status(running, loggedOff, true)).toBe(401);
    expect(await status(running, other)).toBe(200);

    const later = await probeApp(bus);
    apps.push(later);
    expect(await status(later, loggedOff)).toBe(401);
    expect(await status(later, other)).toBe(200);
  });

  it('forgets a revocation once the tokens it matches have expired', () => {
    let now = 1_000_000;
    const revoked = createRevokedAccess(() => now);
    revoked.revoke(['a', 'b'], now + 900_000);
    revoked.revoke(['old'], now - 1);
    expect(revoked.isRevoked(['a'])).toBe(true);
    expect(revoked.isRevoked([undefined, 'b'])).toBe(true);
    expect(revoked.isRevoked(['old', 'c', undefined])).toBe(false);
    now += 900_000;
    expect(revoked.isRevoked(['a'])).toBe(false);
    expect(revoked.size).toBe(0);
  });
});
