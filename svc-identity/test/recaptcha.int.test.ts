import { freePort } from '@lakecams/service-kit/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildIdentityService, type IdentityTestService, mailsTo, registration } from '../src/testing.ts';
import { expectTrueText } from './helpers.ts';

const SECRET = 'test-recaptcha-secret';
const INVALID = [400, 'Captcha ungültig, bitte erneut versuchen'];

/** What the stand-in for Google's siteverify answers per token (a reCAPTCHA v3 verdict, or a server error). */
const VERDICTS: Record<string, { status?: number; body: unknown }> = {
  'human-register': { body: { success: true, action: 'register', score: 0.9, hostname: 'localhost' } },
  'threshold-register': { body: { success: true, action: 'register', score: 0.5 } },
  'human-contact': { body: { success: true, action: 'contact', score: 0.9 } },
  'bot-register': { body: { success: true, action: 'register', score: 0.4 } },
  'failed-register': { body: { success: false, 'error-codes': ['timeout-or-duplicate'] } },
  'broken-register': { status: 500, body: 'internal error' },
};

describe('reCAPTCHA v3 verified by the server (RECAPTCHA_VERIFY_URL)', () => {
  let google: Server;
  const verifications: URLSearchParams[] = [];
  let identity: IdentityTestService;

  beforeAll(async () => {
    google = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const form = new URLSearchParams(body);
        verifications.push(form);
        const verdict = VERDICTS[form.get('response') ?? ''] ?? { body: { success: false } };
        response.writeHead(verdict.status ?? 200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(verdict.body));
      });
    });
    await new Promise<void>((resolve) => google.listen(0, '127.0.0.1', resolve));
    const verifyUrl = `http://127.0.0.1:${(google.address() as AddressInfo).port}/recaptcha/api/siteverify`;
    identity = await buildIdentityService({
      options: {
        captcha: { recaptchaSiteKey: 'test-site-key', recaptchaSecretKey: SECRET, recaptchaVerifyUrl: verifyUrl },
      },
    });
  });
  afterAll(async () => {
    await identity?.close();
    await new Promise((resolve) => google?.close(resolve));
  });

  async function storedUserNames(): Promise<string[]> {
    const admin = identity.client();
    admin.setToken((await admin.post('/api/Authenticate/Authenticate', ADMIN)).json.jwtToken);
    return ((await admin.get('/api/Authenticate/AllUsers')).json as { userName: string }[]).map((u) => u.userName);
  }

  it('tells the page to use reCAPTCHA with its site key', async () => {
    const config = await identity.client().get('/api/Captcha/Config');
    expect(config.json).toEqual({ provider: 'recaptcha', siteKey: 'test-site-key' });
  });

  it('accepts a token the verifier scores at or above 0.5 for the same action, sending it the secret', async () => {
    const client = identity.client();
    const model = registration('human');
    expectTrueText(await client.post('/api/Register/Register?captcha=human-register', model));
    expect(Object.fromEntries(verifications.at(-1) ?? [])).toEqual({
      secret: SECRET,
      response: 'human-register',
      remoteip: '127.0.0.1',
    });
    expectTrueText(await client.post('/api/Register/Register?captcha=threshold-register', registration('threshold')));
    const contact = await client.post('/api/Contact/Contact?captcha=human-contact', {
      name: 'Hans Muster',
      mail: 'hans@example.org',
      phone: '055 123 45 67',
      subject: 'Anderes',
      message: 'Schöne Bilder!',
    });
    expect(contact.status, contact.text).toBe(200);
    expect(await storedUserNames()).toEqual(expect.arrayContaining([model.username, 'anna_threshold']));
    expect(await mailsTo(identity.outboxDir, model.email)).toHaveLength(1);
  });

  it.each([
    ['a token for another action', 'human-contact', INVALID],
    ['a low score', 'bot-register', INVALID],
    ['success false', 'failed-register', INVALID],
    ['a verifier error', 'broken-register', [400, 'Captcha konnte nicht geprüft werden, bitte erneut versuchen']],
  ])('refuses %s with 400 and a message, and stores nothing', async (_case, token, expected) => {
    const model = registration(token.replace('-', '_'));
    const refused = await identity.client().post(`/api/Register/Register?captcha=${token}`, model);
    expect([refused.status, refused.json.message]).toEqual(expected);
    expect(verifications.at(-1)?.get('response')).toBe(token);
    expect(await storedUserNames()).not.toContain(model.username);
    expect(await mailsTo(identity.outboxDir, model.email, 1, 0)).toEqual([]);
  });

  it('refuses with 400 and a message when the verifier cannot be reached, and stores nothing', async () => {
    const unreachable = await buildIdentityService({
      options: {
        captcha: {
          recaptchaSiteKey: 'test-site-key',
          recaptchaSecretKey: SECRET,
          recaptchaVerifyUrl: `http://127.0.0.1:${await freePort()}/recaptcha/api/siteverify`,
        },
      },
    });
    try {
      const model = registration('unreachable');
      const refused = await unreachable.client().post('/api/Register/Register?captcha=human-register', model);
      expect([refused.status, refused.json.message]).toEqual([
        400,
        'Captcha konnte nicht geprüft werden, bitte erneut versuchen',
      ]);
      const admin = unreachable.client();
      admin.setToken((await admin.post('/api/Authenticate/Authenticate', ADMIN)).json.jwtToken);
      const users = (await admin.get('/api/Authenticate/AllUsers')).json as { userName: string }[];
      expect(users.map((u) => u.userName)).toEqual([ADMIN.username]);
    } finally {
      await unreachable.close();
    }
  });
});
