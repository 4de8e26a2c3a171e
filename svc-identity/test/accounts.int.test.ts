import { typedBus } from '@lakecams/bus';
import { type ContactModel, ROLES } from '@lakecams/contracts';
import { PasswordRecoveryRequested } from '@lakecams/contracts/messages';
import type { TestClient } from '@lakecams/service-kit/testing';
import { verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ADMIN,
  buildIdentityService,
  type IdentityTestService,
  mailsContaining,
  mailsTo,
  mailText,
  PASSWORD,
  registration,
  solveCaptcha,
} from '../src/testing.ts';
import { expectTrueText } from './helpers.ts';

function contactMessage(message: string): ContactModel {
  return { name: 'Hans Muster', mail: 'hans@example.org', phone: '055 123 45 67', subject: 'Anderes', message };
}

/** The header and payload of a JWT, and whether `publicKey` verifies its signature. */
function decodeJwt(token: string, publicKey: string) {
  const [header = '', payload = '', signature = ''] = token.split('.');
  const part = (text: string) => JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  const signed = Buffer.from(`${header}.${payload}`);
  return {
    header: part(header),
    payload: part(payload),
    verified: verify(null, signed, publicKey, Buffer.from(signature, 'base64url')),
  };
}

describe('svc-identity accounts on real PostgreSQL', () => {
  let identity: IdentityTestService;

  beforeAll(async () => {
    identity = await buildIdentityService();
  });
  afterAll(async () => identity?.close());

  async function login(client: TestClient, username: string, password: string) {
    const response = await client.post('/api/Authenticate/Authenticate', { username, password });
    if (response.status === 200) client.setToken(response.json.jwtToken);
    return response;
  }

  async function registerAndConfirm(suffix: string) {
    const client = identity.client();
    const model = registration(suffix);
    const captcha = await solveCaptcha(identity.url, 'register');
    const registered = await client.post(`/api/Register/Register?captcha=${captcha}`, model);
    expect(registered.status, registered.text).toBe(200);
    const [mail] = await mailsTo(identity.outboxDir, model.email);
    const token = /token=([\w-]{60,})/.exec(mailText(mail ?? ''))?.[1] as string;
    const confirmed = await client.put(
      `/api/RegisterConfirm/Confirm?userEmail=${encodeURIComponent(model.email)}&token=${token}`,
    );
    expect(confirmed.status).toBe(200);
    return { client, model };
  }

  it('registers with a solved captcha, mails a confirmation token of at least 60 characters, and confirms it', async () => {
    const client = identity.client();
    const model = registration('flow');
    const captcha = await solveCaptcha(identity.url, 'register');
    expectTrueText(await client.post(`/api/Register/Register?captcha=${captcha}`, model));

    const [mail] = await mailsTo(identity.outboxDir, model.email);
    const text = mailText(mail ?? '');
    const token = /token=([\w-]+)/.exec(text)?.[1] ?? '';
    expect(token.length).toBeGreaterThanOrEqual(60);

    expect((await login(client, model.username, PASSWORD)).status).toBe(403);
    const wrong = await client.put(
      `/api/RegisterConfirm/Confirm?userEmail=${encodeURIComponent(model.email)}&token=${'x'.repeat(64)}`,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toBe('This is not the token we sent you');
    const confirmed = await client.put(
      `/api/RegisterConfirm/Confirm?userEmail=${encodeURIComponent(model.email)}&token=${token}`,
    );
    expect(confirmed.status).toBe(200);
    expect(confirmed.json).toBe(true);

    const loggedIn = await login(client, model.username, PASSWORD);
    expect(loggedIn.status).toBe(200);
    expect(loggedIn.json).toMatchObject({
      email: model.email,
      firstName: 'Anna',
      lastName: 'Muster',
      userName: model.username,
      phoneNumber: '079 123 45 67',
      emailConfirmed: true,
      roles: [],
    });
    expect(loggedIn.json.jwtToken.split('.')).toHaveLength(3);
    const setCookie = loggedIn.headers.getSetCookie().find((c) => c.startsWith('refreshToken='));
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).toMatch(/Path=\/api\/Authenticate/);
    // The same access token as an httpOnly cookie, for pictures in <img> (read-only routes only).
    const accessCookie = loggedIn.headers.getSetCookie().find((c) => c.startsWith('lakecams_access='));
    expect(accessCookie).toContain(`lakecams_access=${loggedIn.json.jwtToken}`);
    expect(accessCookie).toMatch(/HttpOnly/i);
    expect(accessCookie).toMatch(/Path=\/api;/);
  });

  it('refuses a missing, wrong-action or replayed captcha and stores nothing', async () => {
    const client = identity.client();
    const model = registration('captcha');
    const missing = await client.post('/api/Register/Register?captcha=', model);
    expect(missing.status).toBe(400);
    expect(missing.json.message).toBe('Captcha wird benötigt');
    const forContact = await solveCaptcha(identity.url, 'contact');
    expect((await client.post(`/api/Register/Register?captcha=${forContact}`, model)).status).toBe(400);
    expect((await client.post('/api/Register/Register?captcha=bm90IGEgcGF5bG9hZA', model)).status).toBe(400);

    const captcha = await solveCaptcha(identity.url, 'register');
    expect((await client.post(`/api/Register/Register?captcha=${captcha}`, registration('first'))).status).toBe(200);
    const replay = await client.post(`/api/Register/Register?captcha=${captcha}`, model);
    expect(replay.status).toBe(400);
    expect(await mailsTo(identity.outboxDir, model.email, 1, 300)).toEqual([]);
    const admin = identity.client();
    await login(admin, ADMIN.username, ADMIN.password);
    const users = (await admin.get('/api/Authenticate/AllUsers')).json as { userName: string }[];
    expect(users.map((u) => u.userName)).not.toContain(model.username);
  });

  it('rejects a taken username or email with 409 and a clear message', async () => {
    const { model } = await registerAndConfirm('taken');
    const client = identity.client();
    const sameName = await client.post(
      `/api/Register/Register?captcha=${await solveCaptcha(identity.url, 'register')}`,
      {
        ...registration('other'),
        username: model.username.toUpperCase(),
      },
    );
    // 409, as when two registrations race and the database refuses the second.
    expect([sameName.status, sameName.json.message]).toEqual([409, 'This username is already taken']);
    const sameMail = await client.post(
      `/api/Register/Register?captcha=${await solveCaptcha(identity.url, 'register')}`,
      {
        ...registration('other2'),
        email: model.email,
      },
    );
    expect([sameMail.status, sameMail.json.message]).toEqual([409, 'This email address is already registered']);
  });

  it('answers wrong credentials with 401', async () => {
    const client = identity.client();
    const response = await login(client, 'nobody_here', PASSWORD);
    expect(response.status).toBe(401);
    expect(response.json.message).toBe('Username or password is incorrect');
    expect((await login(client, ADMIN.username, 'Wrong!Pass1')).status).toBe(401);
  });

  it('rotates the refresh cookie on every refresh and revokes the login when an old one is reused', async () => {
    const { client, model } = await registerAndConfirm('rotate');
    const accessBefore = (await login(client, model.username, PASSWORD)).json.jwtToken as string;
    const first = client.cookies.get('refreshToken') as string;
    const refreshed = await client.post('/api/Authenticate/RefreshToken');
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.userName).toBe(model.username);
    const second = client.cookies.get('refreshToken') as string;
    expect(second).not.toBe(first);
    const other = identity.client();
    const otherLogin = (await login(other, model.username, PASSWORD)).json.jwtToken as string;

    // An attacker replays the first token: the whole family dies, the legitimate second token too.
    const thief = identity.client();
    thief.cookies.set('refreshToken', first);
    const reused = await thief.post('/api/Authenticate/RefreshToken');
    expect(reused.status).toBe(401);
    expect(reused.json.message).toBe('Refresh token was already used; please log in again');
    expect((await client.post('/api/Authenticate/RefreshToken')).status).toBe(401);

    // So do the login's access tokens, issued before and by the refresh; another login of the user stays.
    const roles = async (token: string) => {
      const caller = identity.client();
      caller.setToken(token);
      const answer = await caller.get('/api/Authenticate/Roles/roles');
      return [answer.status, answer.json.message];
    };
    expect(await roles(accessBefore)).toEqual([401, 'The access token was revoked (logged off)']);
    expect(await roles(refreshed.json.jwtToken)).toEqual([401, 'The access token was revoked (logged off)']);
    expect((await roles(otherLogin))[0]).toBe(200);
  });

  it('logs out by revoking the refresh token and clearing the cookie', async () => {
    const { client, model } = await registerAndConfirm('logout');
    await login(client, model.username, PASSWORD);
    const token = client.cookies.get('refreshToken') as string;
    const logout = await client.get('/api/Authenticate/LogOut/logout');
    expect(logout.status).toBe(200);
    expect(client.cookies.has('refreshToken')).toBe(false);
    const replay = identity.client();
    replay.cookies.set('refreshToken', token);
    expect((await replay.post('/api/Authenticate/RefreshToken')).status).toBe(401);
    expect((await identity.client().post('/api/Authenticate/RefreshToken')).json.message).toBe('No refresh token');
  });

  it('answers recover-password the same for unknown emails and resets with the mailed code', async () => {
    const { model } = await registerAndConfirm('reset');
    const before = identity.client();
    before.setToken((await login(before, model.username, PASSWORD)).json.jwtToken);
    expect((await before.get('/api/Authenticate/Roles/roles')).status).toBe(200);
    const client = identity.client();
    const unknown = await client.post('/api/Register/RecoverPassword?email=nobody%40example.org');
    const known = await client.post(`/api/Register/RecoverPassword?email=${encodeURIComponent(model.email)}`);
    expectTrueText(unknown);
    expectTrueText(known);
    const mails = await mailsTo(identity.outboxDir, model.email, 2);
    const code = /Passworts[^\n]*\n([A-Z2-9]{12})/.exec(mailText(mails.at(-1) ?? ''))?.[1] as string;
    expect(code).toMatch(/^[A-Z2-9]{12}$/);

    const reset = {
      email: model.email,
      username: model.username,
      password: 'Neu!Passwort9',
      passwordConfirm: 'Neu!Passwort9',
    };
    const wrong = await client.post('/api/Register/ResetPassword', { ...reset, token: 'AAAAAAAAAAAA' });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toBe('The code is invalid or has expired');
    expectTrueText(await client.post('/api/Register/ResetPassword', { ...reset, token: code }));
    expect((await login(identity.client(), model.username, PASSWORD)).status).toBe(401);
    expect((await login(identity.client(), model.username, 'Neu!Passwort9')).status).toBe(200);
    expect((await client.post('/api/Register/ResetPassword', { ...reset, token: code })).status).toBe(400);
    // The sessions of the old password end, their access tokens as well as their refresh tokens.
    expect((await before.get('/api/Authenticate/Roles/roles')).status).toBe(401);
    expect((await before.post('/api/Authenticate/RefreshToken')).status).toBe(401);
  });

  it('answers recover-password alike for known and unknown emails: same status, body, headers, one queued request each', async () => {
    const { model } = await registerAndConfirm('alike');
    const requested: string[] = [];
    const spy = await typedBus(identity.bus).consume(
      PasswordRecoveryRequested,
      (message) => {
        requested.push(message.data.email);
        message.ack();
      },
      { durable: 'test-recovery-spy' },
    );
    try {
      const client = identity.client();
      const unknown = await client.post('/api/Register/RecoverPassword?email=nobody.alike%40example.org');
      const known = await client.post(`/api/Register/RecoverPassword?email=${encodeURIComponent(model.email)}`);
      // Only the clock and the rate-limit budget may differ.
      const varying = ['date', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
      const comparable = (response: typeof known) => ({
        status: response.status,
        text: response.text,
        headers: [...response.headers].filter(([name]) => !varying.includes(name)),
      });
      expect(comparable(known)).toEqual(comparable(unknown));
      // Both do the same work before answering: queue one recovery request, looked up later.
      const queued = () => requested.filter((email) => email === model.email || email === 'nobody.alike@example.org');
      await expect.poll(queued).toHaveLength(2);
      expect(queued().sort()).toEqual([model.email, 'nobody.alike@example.org'].sort());
      expect(await mailsTo(identity.outboxDir, model.email, 2)).toHaveLength(2);
      expect(await mailsTo(identity.outboxDir, 'nobody.alike@example.org', 1, 0)).toEqual([]);
    } finally {
      await spy.unsubscribe();
    }
  });

  it('updates the profile of the acting user', async () => {
    const { client, model } = await registerAndConfirm('profile');
    await login(client, model.username, PASSWORD);
    const updated = await client.post('/api/Register/Update', {
      firstName: 'Anja',
      lastName: 'Beispiel',
      phoneNumber: '044 555 66 77',
    });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ firstName: 'Anja', lastName: 'Beispiel', phoneNumber: '044 555 66 77' });
    expect(
      (
        await identity
          .client()
          .post('/api/Register/Update', { firstName: 'Xy', lastName: 'Yz', phoneNumber: '044 555 66 77' })
      ).status,
    ).toBe(401);
  });

  it('accepts phone as an alias of phoneNumber in the profile update, with the same messages', async () => {
    const { client, model } = await registerAndConfirm('phonealias');
    await login(client, model.username, PASSWORD);
    const names = { firstName: 'Anna', lastName: 'Muster' };
    const updated = await client.post('/api/Register/Update', { ...names, phone: '044 555 66 77' });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json.phoneNumber).toBe('044 555 66 77');
    const invalid = await client.post('/api/Register/Update', { ...names, phone: '0445556677' });
    expect([invalid.status, invalid.json.message]).toEqual([400, 'This is not a phone number']);
    const missing = await client.post('/api/Register/Update', names);
    expect([missing.status, missing.json.message]).toEqual([400, 'Phone wird benötigt']);
    const both = await client.post('/api/Register/Update', {
      ...names,
      phoneNumber: '079 111 22 33',
      phone: '044 555 66 77',
    });
    expect(both.json.phoneNumber).toBe('079 111 22 33');
  });

  it('redeems a feature code for its role; lists and removes only own assignments', async () => {
    const admin = identity.client();
    await login(admin, ADMIN.username, ADMIN.password);
    const created = await admin.post('/api/Code/CreateCodes?feature=Premium&count=2');
    expect(created.status).toBe(200);
    const [code, second] = created.json as string[];

    const { client, model } = await registerAndConfirm('codes');
    await login(client, model.username, PASSWORD);
    const redeemed = await client.post(`/api/Code/RegisterCode?code=${code}`);
    expect(redeemed.status).toBe(200);
    expect(redeemed.json).toMatchObject({ code, feature: ROLES.premium, userName: model.username });
    expect((await client.get('/api/Authenticate/Roles/roles')).json).toEqual([ROLES.premium]);
    expect((await client.get('/api/Register/Roles')).json).toEqual([ROLES.premium]);
    expect((await client.post(`/api/Code/RegisterCode?code=${code}`)).json.message).toBe('This code is not valid');

    const other = await registerAndConfirm('codes2');
    await login(other.client, other.model.username, PASSWORD);
    await other.client.post(`/api/Code/RegisterCode?code=${second}`);
    const mine = (await client.get('/api/Code/GetCodes')).json as { id: string; userName: string }[];
    expect(mine.map((a) => a.userName)).toEqual([model.username]);
    // An admin's profile lists the admin's own codes too; all of them are an admin list that names the owners.
    expect((await admin.get('/api/Code/GetCodes')).json).toEqual([]);
    const all = await admin.get('/api/Code/GetAllCodes');
    expect(all.status).toBe(200);
    expect(all.json).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code, feature: ROLES.premium, userName: model.username, email: model.email }),
        expect.objectContaining({ code: second, userName: other.model.username, email: other.model.email }),
      ]),
    );
    expect((await client.get('/api/Code/GetAllCodes')).status).toBe(403);
    expect((await identity.client().get('/api/Code/GetAllCodes')).status).toBe(401);

    const othersAssignment = ((await other.client.get('/api/Code/GetCodes')).json as { id: string }[])[0]?.id;
    expect(
      (await client.delete(`/api/Code/RemoveCodeAssignement?codeAssignementGuid=${othersAssignment}`)).status,
    ).toBe(404);
    expectTrueText(await client.delete(`/api/Code/RemoveCodeAssignement?codeAssignementGuid=${mine[0]?.id}`));
    expect((await client.get('/api/Authenticate/Roles/roles')).json).toEqual([]);
    expect((await client.delete('/api/Code/RemoveCodeAssignement?codeAssignementGuid=not-a-uuid')).status).toBe(400);

    const userId = (
      await other.client.post('/api/Register/Update', {
        firstName: 'Otto',
        lastName: 'Other',
        phoneNumber: '044 555 66 77',
      })
    ).json.id;
    expect(
      (
        await other.client.delete(
          `/api/Code/RemoveCodeAssignementFromSystem?userGuid=${userId}&codeAssignementGuid=${othersAssignment}`,
        )
      ).status,
    ).toBe(403);
    expectTrueText(
      await admin.delete(
        `/api/Code/RemoveCodeAssignementFromSystem?userGuid=${userId}&codeAssignementGuid=${othersAssignment}`,
      ),
    );
    expect((await other.client.post(`/api/Code/RegisterCode?code=${second}`)).status).toBe(400);
  });

  it('lets only an Admin list all users, confirm users by hand and create codes', async () => {
    const { client, model } = await registerAndConfirm('adminonly');
    await login(client, model.username, PASSWORD);
    expect((await client.get('/api/Authenticate/AllUsers')).status).toBe(403);
    expect((await identity.client().get('/api/Authenticate/AllUsers')).status).toBe(401);
    expect((await client.post('/api/Code/CreateCodes?feature=Premium&count=1')).status).toBe(403);
    const admin = identity.client();
    await login(admin, ADMIN.username, ADMIN.password);
    expect((await admin.post('/api/Code/CreateCodes?feature=Admin&count=1')).status).toBe(400);
    const users = (await admin.get('/api/Authenticate/AllUsers')).json as { userName: string }[];
    expect(users.map((u) => u.userName)).toEqual(expect.arrayContaining([ADMIN.username, model.username]));

    const pending = registration('manual');
    await identity
      .client()
      .post(`/api/Register/Register?captcha=${await solveCaptcha(identity.url, 'register')}`, pending);
    const pendingId = ((await admin.get('/api/Authenticate/AllUsers')).json as { id: string; userName: string }[]).find(
      (u) => u.userName === pending.username,
    )?.id;
    expect((await client.post(`/api/Code/AuthenticateUser?userGuid=${pendingId}`)).status).toBe(403);
    expectTrueText(await admin.post(`/api/Code/AuthenticateUser?userGuid=${pendingId}`));
    expect((await login(identity.client(), pending.username, PASSWORD)).status).toBe(200);
  });

  it('signs access tokens with EdDSA and carries the roles in the `role` claim', async () => {
    const admin = await login(identity.client(), ADMIN.username, ADMIN.password);
    const adminToken = decodeJwt(admin.json.jwtToken, identity.keys.publicKey);
    expect(adminToken.header).toMatchObject({ alg: 'EdDSA', typ: 'JWT' });
    expect(adminToken.verified).toBe(true);
    expect(adminToken.payload).toMatchObject({ sub: admin.json.id, name: ADMIN.username, role: [ROLES.admin] });
    expect(adminToken.payload.exp - adminToken.payload.iat).toBe(15 * 60);

    const { client, model } = await registerAndConfirm('claims');
    const user = await login(client, model.username, PASSWORD);
    const userToken = decodeJwt(user.json.jwtToken, identity.keys.publicKey);
    expect(userToken.header.alg).toBe('EdDSA');
    expect(userToken.payload).toMatchObject({ sub: user.json.id, name: model.username, role: [] });
  });

  it('lets an Admin act as another user, and nobody else', async () => {
    const { client, model } = await registerAndConfirm('impersonated');
    await login(client, model.username, PASSWORD);
    const me = (
      await client.post('/api/Register/Update', { firstName: 'Anna', lastName: 'Muster', phoneNumber: '079 123 45 67' })
    ).json;
    const admin = identity.client();
    const adminUser = (await login(admin, ADMIN.username, ADMIN.password)).json;
    expect((await admin.get('/api/Authenticate/Roles/roles')).json).toEqual([ROLES.admin]);
    admin.impersonate(me.id);
    expect((await admin.get('/api/Authenticate/Roles/roles')).json).toEqual([]);
    expect((await admin.get('/api/Authenticate/AllUsers')).status).toBe(200);
    const actedOn = await admin.post('/api/Register/Update', {
      firstName: 'Anne',
      lastName: 'Muster',
      phoneNumber: '079 123 45 67',
    });
    expect(actedOn.json.id).toBe(me.id);

    client.impersonate(adminUser.id);
    const refused = await client.get('/api/Authenticate/Roles/roles');
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe('Only administrators may impersonate');
  });

  it('sends a contact message to the operator with a solved captcha', async () => {
    const client = identity.client();
    const message = contactMessage('Schöne Bilder!');
    expect((await client.post('/api/Contact/Contact?captcha=', message)).status).toBe(400);
    const sent = await client.post(
      `/api/Contact/Contact?captcha=${await solveCaptcha(identity.url, 'contact')}`,
      message,
    );
    expect(sent.status).toBe(200);
    const [mail] = await mailsTo(identity.outboxDir, 'operator@example.org');
    expect(mail).toMatch(/^Reply-To: hans@example.org$/m);
    expect(mailText(mail ?? '')).toContain('Hans Muster');
  });
  it('refuses a wrong-action or replayed contact captcha and sends no mail for it', async () => {
    const client = identity.client();
    const invalid = [400, 'Captcha ungültig, bitte erneut versuchen'];
    const forRegister = await solveCaptcha(identity.url, 'register');
    const wrongAction = await client.post(
      `/api/Contact/Contact?captcha=${forRegister}`,
      contactMessage('Marke Aktion'),
    );
    expect([wrongAction.status, wrongAction.json.message]).toEqual(invalid);

    const captcha = await solveCaptcha(identity.url, 'contact');
    const first = await client.post(`/api/Contact/Contact?captcha=${captcha}`, contactMessage('Marke zuerst'));
    expect(first.status).toBe(200);
    const replay = await client.post(`/api/Contact/Contact?captcha=${captcha}`, contactMessage('Marke nochmals'));
    expect([replay.status, replay.json.message]).toEqual(invalid);

    // Mails are delivered in order: once a later one is written, a mail for a refused request would be too.
    const later = await client.post(
      `/api/Contact/Contact?captcha=${await solveCaptcha(identity.url, 'contact')}`,
      contactMessage('Marke danach'),
    );
    expect(later.status).toBe(200);
    expect(await mailsContaining(identity.outboxDir, 'Marke danach')).toHaveLength(1);
    expect(await mailsContaining(identity.outboxDir, 'Marke zuerst', 1, 0)).toHaveLength(1);
    expect(await mailsContaining(identity.outboxDir, 'Marke Aktion', 1, 0)).toEqual([]);
    expect(await mailsContaining(identity.outboxDir, 'Marke nochmals', 1, 0)).toEqual([]);
  });

  it('answers every boolean route as text, declared so in its OpenAPI document', () => {
    const document = identity.app.swagger() as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
    };
    const textBoolean = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => {
          const text = operation.responses['200']?.content?.['text/plain'] as { schema?: { enum?: string[] } };
          return text?.schema?.enum?.join() === 'true,false';
        })
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(textBoolean.sort()).toEqual(
      [
        'POST /api/Register/Register',
        'POST /api/Register/RecoverPassword',
        'POST /api/Register/ResetPassword',
        'DELETE /api/Code/RemoveCodeAssignement',
        'DELETE /api/Code/RemoveCodeAssignementFromSystem',
        'POST /api/Code/AuthenticateUser',
      ].sort(),
    );
  });
});

describe('svc-identity limits', () => {
  it('rejects an expired access token with 401', async () => {
    const identity = await buildIdentityService({ options: { accessTokenTtlSeconds: 1 } });
    try {
      const client = identity.client();
      const login = await client.post('/api/Authenticate/Authenticate', {
        username: ADMIN.username,
        password: ADMIN.password,
      });
      const claims = (token: string) =>
        JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()) as {
          sub: string;
          iat: number;
          exp: number;
        };
      const issued = claims(login.json.jwtToken);
      expect(issued.exp - issued.iat).toBe(1);
      client.setToken(login.json.jwtToken);
      // The token runs out on its own; a busy machine may take longer than its second to ask.
      const expired = await vi.waitUntil(
        async () => {
          const answer = await client.get('/api/Authenticate/Roles/roles');
          return answer.status === 401 ? answer : undefined;
        },
        { timeout: 30_000, interval: 200 },
      );
      expect(expired.json.message).toBe('Invalid or expired access token');
      // The refresh cookie still gets a new access token, for the same user.
      const refreshed = await client.post('/api/Authenticate/RefreshToken');
      expect(refreshed.status, refreshed.text).toBe(200);
      const renewed = claims(refreshed.json.jwtToken);
      expect([renewed.sub, renewed.exp - renewed.iat]).toEqual([issued.sub, 1]);
      expect(renewed.iat).toBeGreaterThan(issued.iat);
    } finally {
      await identity.close();
    }
  });
});

describe('svc-identity rate limits', () => {
  const LIMIT = 3;
  let identity: IdentityTestService;
  beforeAll(async () => {
    identity = await buildIdentityService({ options: { rateLimitPerMinute: LIMIT } });
  });
  afterAll(async () => identity?.close());

  const reset = { email: 'nobody@example.org', username: 'nobody_here', password: PASSWORD, passwordConfirm: PASSWORD };
  const LIMITED: {
    route: string;
    send: (c: TestClient, from: Record<string, string>) => Promise<{ status: number }>;
  }[] = [
    {
      route: 'login',
      send: (c, from) => c.post('/api/Authenticate/Authenticate', { username: 'someone', password: PASSWORD }, from),
    },
    {
      route: 'register',
      send: (c, from) => c.post('/api/Register/Register?captcha=unsolved', registration('limited'), from),
    },
    {
      route: 'recover-password',
      send: (c, from) => c.post('/api/Register/RecoverPassword?email=nobody%40example.org', undefined, from),
    },
    {
      route: 'reset-password',
      send: (c, from) => c.post('/api/Register/ResetPassword', { ...reset, token: 'AAAAAAAAAAAA' }, from),
    },
    {
      route: 'contact',
      send: (c, from) => c.post('/api/Contact/Contact?captcha=unsolved', contactMessage('Hallo zusammen'), from),
    },
  ];

  // Each route gets its own client address (the gateway's X-Forwarded-For), so the cases stay independent.
  it.each(LIMITED.map((limited, i) => ({ ...limited, i })))(
    'answers $route with 429 and a message after the configured count, per client',
    async ({ send, i }) => {
      const client = identity.client();
      const from = { 'x-forwarded-for': `203.0.113.${i + 1}` };
      const statuses: number[] = [];
      for (let n = 0; n < LIMIT; n++) statuses.push((await send(client, from)).status);
      expect(statuses.filter((status) => status === 429)).toEqual([]);
      const limited = (await send(client, from)) as { status: number; json: { message: string } };
      expect(limited.status).toBe(429);
      expect(limited.json.message).toMatch(/^Too many attempts, please wait \d+ s$/);
      expect((await send(client, { 'x-forwarded-for': `198.51.100.${i + 1}` })).status).not.toBe(429);
    },
  );
});
