import { createInProcessBus } from '@lakecams/bus';
import { createSigner } from 'fast-jwt';
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROLE, buildServiceApp, createLogger, type ServiceApp } from '../src/index.ts';

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const sign = createSigner({
  key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  algorithm: 'EdDSA',
  expiresIn: 60_000,
});
const ADMIN = '11111111-1111-4111-8111-111111111111';
const USER = '22222222-2222-4222-8222-222222222222';
const adminToken = sign({ sub: ADMIN, role: [ADMIN_ROLE] });
const userToken = sign({ sub: USER, role: 'User' });

describe('access tokens and the impersonation rule', () => {
  const bus = createInProcessBus();
  let app: ServiceApp;

  beforeAll(async () => {
    app = await buildServiceApp(
      {
        name: 'probe',
        version: '0',
        plugin: async (instance) => {
          instance.get('/who', async (request) => request.principal);
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
});
