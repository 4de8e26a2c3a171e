import { REFERER_RULES } from '@lakecams/contracts';
import { RefererUserLookup, UserChanged } from '@lakecams/contracts/messages';
import { ruleViolations } from '@lakecams/contracts/testing';
import { ADMIN_ROLE, generateSigningKeys } from '@lakecams/service-kit';
import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRefererService, type RefererTestService } from '../src/testing.ts';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const RITA = '22222222-2222-4222-8222-222222222222';
const OTTO = '33333333-3333-4333-8333-333333333333';
const admin = { authorization: `Bearer ${sign({ sub: '11111111-1111-4111-8111-111111111111', role: [ADMIN_ROLE] })}` };
const rita = { authorization: `Bearer ${sign({ sub: RITA, role: ['Referer'] })}` };

describe('referer users in svc-referer on real PostgreSQL', () => {
  let referer: RefererTestService;

  beforeAll(async () => {
    referer = await buildRefererService({ keys });
    for (const [id, userName] of [
      [RITA, 'rita_referer'],
      [OTTO, 'otto_other'],
    ]) {
      await referer.bus.publishEvent(UserChanged.subject, {
        id,
        userName,
        email: `${userName}@example.org`,
        emailConfirmed: true,
      });
    }
  });
  afterAll(async () => referer?.close());

  const call = (
    method: 'GET' | 'PUT' | 'DELETE',
    url: string,
    headers: Record<string, string> = {},
    payload?: object,
  ) => referer.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  it('answers 401 anonymous and 403 to non-admins on the administration calls', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/Referer/GetRefererUsers'],
      ['GET', '/api/Referer/GetUsers/users'],
      ['PUT', '/api/Referer/Set', { url: 'https://x.example/', userEmail: 'rita_referer@example.org' }],
      ['DELETE', '/api/Referer/Delete?id=1'],
    ] as const) {
      expect((await call(method, url, {}, body)).statusCode, `${url} anonymous`).toBe(401);
      expect((await call(method, url, rita, body)).statusCode, `${url} referer user`).toBe(403);
    }
    expect((await call('GET', '/api/Referer/GetReferers')).statusCode).toBe(401);
  });

  it('offers the users that have an email', async () => {
    await expect
      .poll(async () =>
        ((await call('GET', '/api/Referer/GetUsers/users', admin)).json() as { email: string }[]).map((u) => u.email),
      )
      .toEqual(['otto_other@example.org', 'rita_referer@example.org']);
  });

  it('adds referer users and returns the list; refuses duplicates and unknown emails', async () => {
    const list = await call('PUT', '/api/Referer/Set', admin, {
      url: 'https://partner.example/see',
      userEmail: 'rita_referer@example.org',
    });
    expect(list.json()).toEqual([
      { id: expect.any(Number), userEmail: 'rita_referer@example.org', url: 'https://partner.example/see' },
    ]);
    await call('PUT', '/api/Referer/Set', admin, { url: 'https://otto.example/', userEmail: 'otto_other@example.org' });
    expect(
      (
        await call('PUT', '/api/Referer/Set', admin, {
          url: 'https://partner.example/see',
          userEmail: 'rita_referer@example.org',
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (await call('PUT', '/api/Referer/Set', admin, { url: 'https://x.example/', userEmail: 'nobody@example.org' }))
        .statusCode,
    ).toBe(400);
    expect(((await call('GET', '/api/Referer/GetRefererUsers', admin)).json() as unknown[]).length).toBe(2);
  });

  const cases = Object.entries(REFERER_RULES).flatMap(([field, rule]) =>
    ruleViolations(field, rule).map((v) => ({ ...v, field })),
  );
  it.each(cases)('referer dialog: $case → 400 "$message"', async ({ field, value, message }) => {
    const response = await call('PUT', '/api/Referer/Set', admin, {
      url: 'https://ok.example/',
      userEmail: 'rita_referer@example.org',
      [field]: value,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it('shows a referer user only their own urls; an admin all; and answers the bus look-up', async () => {
    const mine = (await call('GET', '/api/Referer/GetReferers', rita)).json() as { url: string }[];
    expect(mine.map((r) => r.url)).toEqual(['https://partner.example/see']);
    expect(((await call('GET', '/api/Referer/GetRefererOfUser/ofUser', rita)).json() as unknown[]).length).toBe(1);
    expect(((await call('GET', '/api/Referer/GetReferers', admin)).json() as unknown[]).length).toBe(2);
    const [first] = mine as unknown as { id: number }[];
    expect(await referer.bus.request(RefererUserLookup.subject, { id: first?.id })).toMatchObject({
      url: 'https://partner.example/see',
    });
    expect(await (await call('GET', '/api/Referer/GetPagesUses/PageUser')).json()).toEqual([
      'https://otto.example/',
      'https://partner.example/see',
    ]);
  });

  it('deletes referer users (Admin), 404 when gone', async () => {
    const [otto] = (
      (await call('GET', '/api/Referer/GetRefererUsers', admin)).json() as { id: number; url: string }[]
    ).filter((r) => r.url.includes('otto'));
    expect((await call('DELETE', `/api/Referer/Delete?id=${otto?.id}`, admin)).body).toBe('true');
    expect((await call('DELETE', `/api/Referer/Delete?id=${otto?.id}`, admin)).statusCode).toBe(404);
  });
});
