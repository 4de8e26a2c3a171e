import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildIdentityService, type IdentityTestService } from '../src/testing.ts';

const ADMIN_LOGIN = { username: ADMIN.username, password: ADMIN.password };

describe('svc-identity keeps the JSON types of bodies and checks the caller first', () => {
  let identity: IdentityTestService;

  beforeAll(async () => {
    identity = await buildIdentityService();
  });
  afterAll(async () => identity?.close());

  async function signedIn() {
    const client = identity.client();
    const login = await client.post('/api/Authenticate/Authenticate', {
      username: ADMIN.username,
      password: ADMIN.password,
    });
    expect(login.status).toBe(200);
    client.setToken(login.json.jwtToken);
    return client;
  }

  it('refuses a profile whose first name is a number, and keeps the profile', async () => {
    const client = await signedIn();
    const saved = await client.post('/api/Register/Update', {
      firstName: 'Adrian',
      lastName: 'Admin',
      phoneNumber: '079 123 45 67',
    });
    expect(saved.status).toBe(200);
    const refused = await client.post('/api/Register/Update', {
      firstName: 12345,
      lastName: 'Admin',
      phoneNumber: '079 123 45 67',
    });
    expect([refused.status, refused.json]).toEqual([
      400,
      { statusCode: 400, error: 'Bad Request', message: 'body/firstName must be string' },
    ]);
    const users = await client.get('/api/Authenticate/AllUsers');
    expect(users.json.find((user: { userName: string }) => user.userName === ADMIN.username).firstName).toBe('Adrian');
  });

  it('answers an anonymous profile update 401 whatever it sends', async () => {
    const client = identity.client();
    const broken = await client.post('/api/Register/Update', { firstName: 12345 });
    expect([broken.status, broken.json.message]).toEqual([401, 'Authentication required']);
    const text = await fetch(`${identity.url}/api/Register/Update`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'Adrian',
    });
    expect(text.status).toBe(401);
    await text.body?.cancel();
  });

  it('refuses a profile sent as text, in UTF-16, with bytes that are no UTF-8 or with a hidden character, and keeps it', async () => {
    const client = await signedIn();
    const profile = { firstName: 'Adrian', lastName: 'Admin', phoneNumber: '079 123 45 67' };
    expect((await client.post('/api/Register/Update', profile)).status).toBe(200);
    const token = (await identity.client().post('/api/Authenticate/Authenticate', ADMIN_LOGIN)).json.jwtToken;
    const send = async (contentType: string, body: Buffer) => {
      const answer = await fetch(`${identity.url}/api/Register/Update`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
        body: new Uint8Array(body),
      });
      return [answer.status, ((await answer.json()) as { message: string }).message];
    };
    const json = (firstName: string) => JSON.stringify({ ...profile, firstName });
    expect(await send('text/plain', Buffer.from(json('Bruno')))).toEqual([
      415,
      'A body of type text/plain is not read here: send application/json (uploads: multipart/form-data)',
    ]);
    expect(await send('application/json; charset=utf-16', Buffer.from(json('Bruno'), 'utf16le'))).toEqual([
      415,
      'JSON is read in UTF-8 only, not charset=utf-16',
    ]);
    expect(await send('application/json', Buffer.from(json('Br\u00fcno'), 'latin1'))).toEqual([
      400,
      'The body is not valid UTF-8',
    ]);
    expect(await send('application/json', Buffer.from(json('\u202Eonurb')))).toEqual([
      400,
      'Firstname must not contain invisible or text-direction characters',
    ]);
    const users = await client.get('/api/Authenticate/AllUsers');
    expect(users.json.find((user: { userName: string }) => user.userName === ADMIN.username).firstName).toBe('Adrian');
  });

  it('refuses a NUL character in a login name with 400 and its field', async () => {
    const answer = await identity.client().post('/api/Authenticate/Authenticate', {
      username: 'portal\u0000admin',
      password: ADMIN.password,
    });
    expect([answer.status, answer.json.message]).toEqual([400, 'body/username must not contain NUL characters']);
  });
});
