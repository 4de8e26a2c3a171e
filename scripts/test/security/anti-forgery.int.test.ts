import { ACCESS_COOKIE, ANTI_FORGERY_SESSION_COOKIE, XSRF_COOKIE, XSRF_HEADER } from '@lakecams/contracts';
import type { AntiForgeryPair } from '@lakecams/service-kit/testing';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { antiForgeryToken, isSafeMethod, type RequestSpec, send } from './http.ts';
import {
  type Actor,
  createMatrixContext,
  isServiceRoute,
  type MatrixContext,
  type Prepared,
  ROUTE_ACCESS,
} from './route-access.ts';
import { type Fixtures, type SecurityPortal, setUpFixtures, snapshot, startSecurityPortal } from './security-portal.ts';

const RATE_LIMIT = 30;
let p: SecurityPortal;
let f: Fixtures;
let m: MatrixContext;
/** Another browser's pair, e.g. the attacker's own, fetched from the same gateway. */
let foreign: AntiForgeryPair;

beforeAll(async () => {
  p = await startSecurityPortal({ rateLimitPerMinute: RATE_LIMIT });
  f = await setUpFixtures(p);
  m = await createMatrixContext(p, f);
  foreign = await antiForgeryToken(p.url);
}, 120_000);
afterAll(async () => p?.close());

const header = XSRF_HEADER.toLowerCase();
const REFUSED = 'Missing or invalid anti-forgery token';

/** What a forged or careless request carries instead of the matching cookies and header. */
function forgeries({ cookie, token }: AntiForgeryPair): [string, Record<string, string>][] {
  const other = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
  const session = cookie.split('; ')[0] as string;
  const foreignSession = foreign.cookie.split('; ')[0] as string;
  // What a sibling subdomain can plant: a token shaped like the gateway's, but signed by nobody.
  const planted = `${randomBytes(24).toString('base64url')}.${randomBytes(32).toString('base64url')}`;
  return [
    ['neither cookie nor header', {}],
    ['the cookies only (what a cross-site form sends)', { cookie }],
    ['the header only', { [header]: token }],
    ['a header not matching the cookie', { cookie, [header]: other }],
    ['an empty header', { cookie, [header]: '' }],
    ['the header with a different case', { cookie, [header]: token.toUpperCase() }],
    ['the header with something appended', { cookie, [header]: `${token}x` }],
    ['an empty cookie and an empty header', { cookie: `${session}; ${XSRF_COOKIE}=`, [header]: '' }],
    ['the cookie under another name', { cookie: `${session}; xsrf-token=${token}`, [header]: token }],
    ['the token without its session cookie', { cookie: `${XSRF_COOKIE}=${token}`, [header]: token }],
    ['a planted unsigned token, echoed', { cookie: `${session}; ${XSRF_COOKIE}=${planted}`, [header]: planted }],
    [
      "a planted token of another browser's session, echoed",
      { cookie: `${session}; ${XSRF_COOKIE}=${foreign.token}`, [header]: foreign.token },
    ],
    [
      "the token with another browser's session",
      { cookie: `${foreignSession}; ${XSRF_COOKIE}=${token}`, [header]: token },
    ],
  ];
}

function adminActor(viaCookie: boolean): Actor {
  return { role: 'admin', caller: p.admin, acting: p.admin, viaCookie };
}

function withCredentials(spec: RequestSpec, viaCookie: boolean, forged: Record<string, string>): RequestSpec {
  const cookies = [spec.headers?.cookie, forged.cookie, viaCookie ? `${ACCESS_COOKIE}=${p.admin.accessCookie}` : '']
    .filter(Boolean)
    .join('; ');
  const headers: Record<string, string> = { ...spec.headers, ...forged };
  if (cookies) headers.cookie = cookies;
  else delete headers.cookie;
  if (!viaCookie) headers.authorization = `Bearer ${p.admin.token}`;
  return { ...spec, headers };
}

describe('anti-forgery: every non-GET/HEAD route refuses a request without the matching header', () => {
  it('refuses each forgery on every mutating route, stores nothing, and accepts the matching pair', async () => {
    const mutating = p.routes.filter((r) => isServiceRoute(r.url) && !isSafeMethod(r.method));
    const prepared: [string, Prepared, boolean][] = [];
    for (const route of mutating) {
      const key = `${route.method} ${route.url}`;
      const access = ROUTE_ACCESS[key];
      expect(access, `${key} has no entry in ROUTE_ACCESS`).toBeDefined();
      // Authenticated by its own secret, never by a cookie: checked below to take no cookie instead.
      if (!access || access.ownSecret) continue;
      // Routes that take the access cookie are what a cross-site form would aim at: forge with the cookie too.
      for (const viaCookie of access.cookieAuth ? [false, true] : [false]) {
        prepared.push([key, await access.build(m, adminActor(viaCookie)), viaCookie]);
      }
    }
    const before = await snapshot(p);
    const failures: string[] = [];
    let tried = 0;
    for (const [key, spec, viaCookie] of prepared) {
      for (const [what, forged] of forgeries(p.xsrf)) {
        const answer = await send(p.url, withCredentials(spec, viaCookie, forged));
        tried++;
        if (answer.status !== 403 || answer.json?.message !== REFUSED) {
          failures.push(`${key}${viaCookie ? ' (access cookie)' : ''} with ${what}: ${answer.status} ${answer.text}`);
        }
      }
      // No method slips past: PATCH is checked like POST, OPTIONS reaches no handler (405: the path takes others).
      for (const method of ['PATCH', 'OPTIONS']) {
        const answer = await send(p.url, withCredentials({ ...spec, method }, viaCookie, {}));
        tried++;
        const refused = method === 'PATCH' ? answer.status === 403 : answer.status === 405;
        if (!refused) failures.push(`${method} ${key.split(' ')[1]}: ${answer.status} ${answer.text.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot(p)).toEqual(before);
    // The same requests with the matching pair are done: the refusals above were the anti-forgery check's.
    const accepted: string[] = [];
    for (const [key, spec, viaCookie] of prepared) {
      const answer = await send(
        p.url,
        withCredentials(spec, viaCookie, { cookie: p.xsrf.cookie, [header]: p.xsrf.token }),
      );
      const success = ROUTE_ACCESS[key]?.success ?? [200];
      if (!success.includes(answer.status)) accepted.push(`${key}: ${answer.status} ${answer.text.slice(0, 200)}`);
    }
    expect(accepted).toEqual([]);
    console.log(
      `[anti-forgery] ${mutating.length} non-GET/HEAD routes, ${prepared.length} requests × ${forgeries(p.xsrf).length} forgeries + PATCH/OPTIONS = ${tried} refused requests; ${prepared.length} accepted with the matching pair`,
    );
  }, 180_000);

  it('lets cameras push without the header, authenticated only by their secret: the cookies alone open nothing', async () => {
    const own = Object.entries(ROUTE_ACCESS).filter(([, access]) => access.ownSecret);
    expect(own.map(([key]) => key).sort()).toEqual([
      'POST /api/Image/Push/camera/:file',
      'PUT /api/Image/Push/camera/:file',
    ]);
    for (const [key, access] of own) {
      const spec = await access.build(m, { role: 'anonymous', caller: null, acting: null, viaCookie: false });
      // With its secret, without anti-forgery cookie or header: done.
      expect((await send(p.url, spec)).status, key).toBe(201);
      // A cross-site form has the visitor's cookies but not the secret.
      const cookies = `${p.xsrf.cookie}; ${ACCESS_COOKIE}=${p.admin.accessCookie}`;
      const forged = { ...spec, headers: { cookie: cookies, [header]: p.xsrf.token } };
      expect((await send(p.url, forged)).status, key).toBe(401);
    }
  });

  it('hands out an httpOnly session id and a readable token signed for it, both SameSite=Strict', async () => {
    const answer = await send(p.url, { method: 'GET', path: '/api/News/News/news' });
    const cookies = ([] as string[]).concat(answer.headers['set-cookie'] ?? []);
    expect(cookies).toEqual([
      expect.stringMatching(
        new RegExp(`^${ANTI_FORGERY_SESSION_COOKIE}=[\\w-]{43}; Path=/; SameSite=Strict; HttpOnly$`),
      ),
      expect.stringMatching(/^XSRF-TOKEN=[\w-]{32}\.[\w-]{43}; Path=\/; SameSite=Strict$/),
    ]);
    // A browser that keeps its cookies is not handed new ones.
    const again = await send(p.url, { method: 'GET', path: '/api/News/News/news', headers: { cookie: p.xsrf.cookie } });
    expect(again.headers['set-cookie']).toBeUndefined();
  });
});

describe('rate limits', () => {
  it('limit login, registration, password recovery and contact per client, whatever X-Forwarded-For says', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= RATE_LIMIT; i++) {
      const answer = await p.call({
        method: 'POST',
        path: `/api/Register/RecoverPassword?email=nobody-${i}@example.org`,
        // A client must not choose its own rate-limit key.
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
      });
      statuses.push(answer.status);
      if (answer.status === 429) expect(answer.json.message).toMatch(/^Too many attempts, please wait \d+ s$/);
    }
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(RATE_LIMIT);
    expect(statuses.at(-1)).toBe(429);
    console.log(
      `[anti-forgery] rate limit: ${statuses.length} recover-password requests, ${statuses.filter((s) => s === 429).length} refused with 429`,
    );
  });
});
