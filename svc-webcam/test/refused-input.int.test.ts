import { UserChanged } from '@lakecams/contracts/messages';
import { ADMIN_ROLE, generateSigningKeys } from '@lakecams/service-kit';
import { createSigner } from 'fast-jwt';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildWebcamService, type Database, type WebcamTestService } from '../src/testing.ts';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const admin = { authorization: `Bearer ${sign({ sub: '11111111-1111-4111-8111-111111111111', role: [ADMIN_ROLE] })}` };
const KNOWN_USER = '22222222-2222-4222-8222-222222222222';
const UNKNOWN_USER = '99999999-9999-4999-8999-999999999999';

/** What a refused request must leave as it was. */
async function stored(db: Kysely<Database>) {
  const count = async (table: 'webcams' | 'cameraPermissions' | 'cameraConfigurations' | 'refererBookings') =>
    Number((await db.selectFrom(table).select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return {
    webcams: await count('webcams'),
    permissions: await count('cameraPermissions'),
    configurations: await count('cameraConfigurations'),
    bookings: await count('refererBookings'),
    news: (await db.selectFrom('news').select('text').executeTakeFirst())?.text ?? '',
  };
}

describe('svc-webcam refuses input of the wrong type, off the calendar, out of range or naming nobody', () => {
  let webcam: WebcamTestService;
  let app: WebcamTestService['app'];
  let db: Kysely<Database>;
  let cameraId: number;

  beforeAll(async () => {
    webcam = await buildWebcamService({ keys });
    ({ app, db } = webcam);
    await webcam.bus.publishEvent(UserChanged.subject, {
      id: KNOWN_USER,
      userName: 'rita_known',
      email: 'rita@example.org',
      emailConfirmed: true,
    });
    const camera = {
      name: 'Pruefkamera',
      pattern: 'https://cam.example/a.jpg',
      distance: 5,
      angle: 60,
      intervalMin: 5,
    };
    expect((await call('POST', '/api/Webcam/Set', camera)).statusCode).toBe(200);
    cameraId = ((await call('GET', '/api/Webcam/GetCameras?name=Pruefkamera')).json() as { id: number }[])[0]
      ?.id as number;
    expect((await call('PUT', '/api/News/News/news', { text: 'Neue Kamera in Stäfa!' })).statusCode).toBe(200);
    // svc-webcam learns users from svc-identity's events.
    await vi.waitFor(async () => expect(await knows(KNOWN_USER)).toBe(true), { timeout: 30_000, interval: 20 });
  });
  afterAll(async () => webcam?.close());

  const knows = async (id: string) =>
    (await db.selectFrom('knownUsers').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers = admin) {
    return app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });
  }
  /** 400 (or `status`) with exactly this message, and nothing stored. */
  async function refused(answer: Promise<{ statusCode: number; json(): unknown }>, message: string, status = 400) {
    const before = await stored(db);
    const { statusCode, json } = await answer;
    expect(json()).toEqual({ statusCode: status, error: expect.any(String), message });
    expect(statusCode).toBe(status);
    expect(await stored(db)).toEqual(before);
  }

  it('keeps the JSON types of bodies: a number is no name, a string no interval, news text is a string', async () => {
    const camera = { name: 'Typkamera', pattern: 'https://cam.example/b.jpg', distance: 5, angle: 60, intervalMin: 5 };
    await refused(call('POST', '/api/Webcam/Set', { ...camera, name: 123 }), 'body/name must be string');
    await refused(
      call('POST', '/api/Webcam/Set', { ...camera, intervalMin: '10' }),
      'body/intervalMin must be integer',
    );
    await refused(call('PUT', '/api/News/News/news', { text: 5 }), 'body/text must be string');
    await refused(call('PUT', '/api/News/News/news', { text: null }), 'body/text must be string');
    expect((await app.inject({ url: '/api/News/News/news' })).body).toBe('Neue Kamera in Stäfa!');
  });

  it('answers a booking date off the calendar with "is not a valid date", naming the field', async () => {
    const booking = { start: '2026-11-24', end: '2026-11-30', quality: 'LOW' };
    const url = `/api/Webcam/SetReferer/referer?webcamId=${cameraId}`;
    for (const start of ['2026-11-24T99:99:99Z', '2026-13-45', '2026-01-01xyz', '0000-00-00']) {
      await refused(call('PUT', url, { ...booking, start }), 'body/start is not a valid date');
    }
    await refused(call('PUT', url, { ...booking, end: '2026-11-31' }), 'body/end is not a valid date');
    const saved = await call('PUT', url, { ...booking, start: '2026-11-24T13:45:00Z' });
    expect([saved.statusCode, saved.json().start]).toEqual([200, '2026-11-24']);
  });

  it('refuses ids beyond PostgreSQL integer and NUL characters before any query, without its messages', async () => {
    const big = await call('GET', '/api/Webcam/GetCameraById?id=132995288337834272');
    expect([big.statusCode, big.json().message]).toEqual([400, 'querystring/id must be <= 2147483647']);
    expect(big.body).not.toMatch(/132995288337834270|out of range/);
    await refused(
      call('PUT', '/api/News/News/news', { text: 'Neu\u0000' }),
      'body/text must not contain NUL characters',
    );
    const nul = await call('GET', '/api/Webcam/GetCameras?name=%00');
    expect([nul.statusCode, nul.json().message]).toEqual([400, 'querystring/name must not contain NUL characters']);
    const day = await call('GET', '/api/Webcam/GetImageHistory?name=Pruefkamera&day=0000-00-00');
    expect([day.statusCode, day.json().message]).toEqual([400, 'querystring/day is not a valid date']);
  });

  it('gives permissions and qualities only to users it knows, storing nothing otherwise', async () => {
    await refused(
      call('POST', `/api/Webcam/SetUsers/users?webcamId=${cameraId}`, [KNOWN_USER, UNKNOWN_USER]),
      `No such user ${UNKNOWN_USER}`,
      404,
    );
    await refused(
      call('POST', `/api/Webcam/SetUsers/users?webcamId=${cameraId}`, [{ id: UNKNOWN_USER }]),
      `No such user ${UNKNOWN_USER}`,
      404,
    );
    await refused(
      call(
        'POST',
        `/api/Webcam/SetConfiguration/configuration?webcamId=${cameraId}&userId=${UNKNOWN_USER}&quality=HIGH`,
      ),
      `No such user ${UNKNOWN_USER}`,
      404,
    );
    expect((await call('POST', `/api/Webcam/SetUsers/users?webcamId=${cameraId}`, [KNOWN_USER])).statusCode).toBe(200);
    const users = await call('GET', `/api/Webcam/GetUsers/users?webcamId=${cameraId}`);
    expect(users.json()).toEqual([{ id: KNOWN_USER, userName: 'rita_known', email: 'rita@example.org' }]);
  });

  it('answers anonymous callers 401 before it looks at what they sent', async () => {
    const text = await app.inject({
      method: 'PUT',
      url: '/api/News/News/news',
      headers: { 'content-type': 'text/plain' },
      payload: 'Neuigkeit',
    });
    expect([text.statusCode, text.json().message]).toEqual([401, 'Authentication required']);
    const broken = await app.inject({
      method: 'PUT',
      url: `/api/Webcam/SetReferer/referer?webcamId=x`,
      headers: { 'content-type': 'application/json' },
      payload: '{"start":',
    });
    expect(broken.statusCode).toBe(401);
  });
});
