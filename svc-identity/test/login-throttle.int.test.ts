import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  buildIdentityService,
  type IdentityTestService,
  PASSWORD,
  registration,
  solveCaptcha,
} from '../src/testing.ts';

describe('login rate limit per account and address', () => {
  let identity: IdentityTestService;
  const bruno = registration('throttle');
  beforeAll(async () => {
    identity = await buildIdentityService({ options: { rateLimitPerMinute: 10 } });
    const captcha = await solveCaptcha(identity.url, 'register');
    expect((await identity.client().post(`/api/Register/Register?captcha=${captcha}`, bruno)).status).toBe(200);
    const admin = identity.client();
    admin.setToken((await admin.post('/api/Authenticate/Authenticate', ADMIN)).json.jwtToken);
    const users = (await admin.get('/api/Authenticate/AllUsers')).json as { id: string; userName: string }[];
    const id = users.find((user) => user.userName === bruno.username)?.id;
    expect((await admin.post(`/api/Code/AuthenticateUser?userGuid=${id}`)).text).toBe('true');
  });
  afterAll(async () => identity?.close());

  const login = (username: string, password: string, address: string) =>
    identity.client().post('/api/Authenticate/Authenticate', { username, password }, { 'x-forwarded-for': address });

  it('locks out the guessed account from the guessing address only: other users there and the account elsewhere log in', async () => {
    const guessing = '192.0.2.10';
    for (let n = 0; n < 10; n++) expect((await login(ADMIN.username, 'Wrong!Guess1', guessing)).status).toBe(401);
    const locked = await login(ADMIN.username, ADMIN.password, guessing);
    expect(locked.status).toBe(429);
    expect(locked.json.message).toMatch(/^Too many attempts, please wait \d+ s$/);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);

    expect((await login(bruno.username, PASSWORD, guessing)).status).toBe(200);
    expect((await login(ADMIN.username, ADMIN.password, '198.51.100.20')).status).toBe(200);
  });
});
