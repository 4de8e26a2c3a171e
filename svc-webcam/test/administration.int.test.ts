import { AccessChanged, CameraDeleted, CameraUpserted, UserChanged } from '@lakecams/contracts/messages';
import { CAMERA_RULES } from '@lakecams/contracts';
import { ruleViolations } from '@lakecams/contracts/testing';
import { ADMIN_ROLE, generateSigningKeys } from '@lakecams/service-kit';
import { buildRefererService, type RefererTestService } from '@lakecams/svc-referer/testing';
import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildWebcamService, type WebcamTestService } from '../src/testing.ts';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const ADMIN_ID = '11111111-1111-4111-8111-111111111111';
const USER_ID = '22222222-2222-4222-8222-222222222222';
const OTHER_ID = '33333333-3333-4333-8333-333333333333';
const admin = { authorization: `Bearer ${sign({ sub: ADMIN_ID, role: [ADMIN_ROLE] })}` };
const user = { authorization: `Bearer ${sign({ sub: USER_ID, role: ['Referer'] })}` };

describe('camera administration in svc-webcam (with svc-referer) on real PostgreSQL', () => {
  const events: { subject: string; data: Record<string, unknown> }[] = [];
  let webcam: WebcamTestService;
  let referer: RefererTestService;
  let refererUserId: number;

  beforeAll(async () => {
    webcam = await buildWebcamService({ keys });
    // svc-referer answers svc-webcam's look-ups of referer users: on the same bus.
    referer = await buildRefererService({ bus: webcam.bus, keys });
    await webcam.bus.consume(
      (message) => {
        events.push({ subject: message.subject, data: message.data as Record<string, unknown> });
        message.ack();
      },
      { durable: 'test-observer', filter: 'webcam.>' },
    );
    for (const [id, userName] of [
      [USER_ID, 'rita_referer'],
      [OTHER_ID, 'otto_other'],
    ]) {
      await webcam.bus.publishEvent(UserChanged.subject, {
        id,
        userName,
        email: `${userName}@example.org`,
        emailConfirmed: true,
        change: 'created',
      });
    }
    // svc-webcam learns users from svc-identity's events, in its own time.
    await vi.waitFor(
      async () =>
        expect(
          (await webcam.db.selectFrom('knownUsers').select('id').orderBy('id').execute()).map((user) => user.id),
        ).toEqual([USER_ID, OTHER_ID]),
      { timeout: 30_000, interval: 50 },
    );
    refererUserId = (
      await referer.db
        .insertInto('refererUsers')
        .values({ userId: USER_ID, userEmail: 'rita_referer@example.org', url: 'https://partner.example/see' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });

  afterAll(async () => {
    // svc-referer borrowed svc-webcam's bus: it closes first.
    await referer?.close();
    await webcam?.close();
  });

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    headers: Record<string, string> = {},
    payload?: unknown,
  ) => webcam.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });
  const camera = {
    name: 'Testkamera',
    pattern: 'https://cam.example/live.jpg',
    distance: 5,
    angle: 60,
    intervalMin: 5,
    webcamType: 'STATIC',
  };
  const cameraId = async (name = 'Testkamera') =>
    ((await call('GET', `/api/Webcam/GetCameras?name=${name}`)).json() as { id: number }[])[0]?.id as number;

  it('answers 401 to anonymous callers and 403 to non-admins on every administration call', async () => {
    const routes: ['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?][] = [
      ['POST', '/api/Webcam/Set', camera],
      ['DELETE', '/api/Webcam/Delete', { id: 1 }],
      ['GET', '/api/Webcam/GetUsers/users?webcamId=1'],
      ['POST', '/api/Webcam/SetUsers/users?webcamId=1', []],
      ['GET', '/api/Webcam/GetConfiguration/configuration?webcamId=1'],
      ['POST', '/api/Webcam/SetConfiguration/configuration?webcamId=1&quality=HIGH'],
      ['DELETE', '/api/Webcam/RemoveConfiguration/configuration?configurationId=1'],
      ['GET', '/api/Webcam/GetReferers/referers?webcamId=1'],
      ['PUT', '/api/Webcam/SetReferer/referer?webcamId=1', { start: '2026-11-22', end: '2026-11-22', quality: 'POOR' }],
      ['DELETE', '/api/Webcam/RemoveReferer/referer?webcamId=1&refererId=1'],
    ];
    for (const [method, url, body] of routes) {
      expect((await call(method, url, {}, body)).statusCode, `${method} ${url} anonymous`).toBe(401);
      expect((await call(method, url, user, body)).statusCode, `${method} ${url} user`).toBe(403);
    }
    expect((await call('GET', '/api/Webcam/GetReferersofUser/referersOfUSer')).statusCode).toBe(401);
  });

  it('creates, changes and announces a camera; refuses a taken name', async () => {
    const created = await call('POST', '/api/Webcam/Set', admin, camera);
    expect([created.statusCode, created.body]).toEqual([200, 'true']);
    const id = await cameraId();
    await expect
      .poll(() => events.find((e) => e.subject === CameraUpserted.subject && e.data.id === id)?.data.name)
      .toBe('Testkamera');
    expect((await call('POST', '/api/Webcam/Set', admin, { ...camera, id, intervalMin: 10 })).body).toBe('true');
    expect(
      ((await call('GET', `/api/Webcam/GetCameraById?id=${id}`)).json() as { intervalMin: number }).intervalMin,
    ).toBe(10);
    // The source URL is the admin's to see, nobody else's.
    const source = async (headers: Record<string, string>) =>
      ((await call('GET', `/api/Webcam/GetCameraById?id=${id}`, headers)).json() as { pattern: string }).pattern;
    expect(await source(admin)).toBe(camera.pattern);
    expect(await source(user)).toBe('');
    expect(await source({})).toBe('');
    expect(await source({ ...admin, impersonate: USER_ID })).toBe('');
    const taken = await call('POST', '/api/Webcam/Set', admin, camera);
    expect(taken.statusCode).toBe(409);
    expect((await call('POST', '/api/Webcam/Set', admin, { ...camera, id: 9999, name: 'Neu' })).statusCode).toBe(404);
  });

  const violations = Object.entries(CAMERA_RULES).flatMap(([field, rule]) =>
    ruleViolations(field, rule).map((v) => ({ ...v, field })),
  );
  it.each(violations)('camera edit: $case → 400 "$message"', async ({ field, value, message }) => {
    const response = await call('POST', '/api/Webcam/Set', admin, { ...camera, name: 'Regel-Test', [field]: value });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it('keeps the users with access to a camera and tells svc-imaging', async () => {
    const id = await cameraId();
    expect(
      (
        await call('POST', `/api/Webcam/SetUsers/users?webcamId=${id}`, admin, [
          USER_ID,
          { id: OTHER_ID, userName: 'x' },
        ])
      ).body,
    ).toBe('true');
    const users = (await call('GET', `/api/Webcam/GetUsers/users?webcamId=${id}`, admin)).json() as {
      userName: string;
    }[];
    expect(users.map((u) => u.userName)).toEqual(['otto_other', 'rita_referer']);
    await call('POST', `/api/Webcam/SetUsers/users?webcamId=${id}`, admin, [USER_ID]);
    await expect
      .poll(
        () =>
          events.filter((e) => e.subject === AccessChanged.subject && e.data.webcamId === id).at(-1)?.data
            .permittedUserIds,
      )
      .toEqual([USER_ID]);
    expect((await call('POST', '/api/Webcam/SetUsers/users?webcamId=9999', admin, [])).statusCode).toBe(404);
    expect((await call('POST', `/api/Webcam/SetUsers/users?webcamId=${id}`, admin, ['not-a-user'])).statusCode).toBe(
      400,
    );
  });

  it('lists to a user only the cameras they may configure; an admin sees all', async () => {
    const id = await cameraId();
    await call('POST', '/api/Webcam/Set', admin, { ...camera, name: 'Andere' });
    const mine = (await call('GET', '/api/Webcam/GetReferersofUser/referersOfUSer', user)).json() as Record<
      string,
      { name: string }
    >;
    expect(Object.keys(mine)).toEqual([String(id)]);
    const all = (await call('GET', '/api/Webcam/GetReferersofUser/referersOfUSer', admin)).json() as Record<
      string,
      unknown
    >;
    expect(Object.keys(all)).toHaveLength(2);
  });

  it('sets one quality per user and one for all other users, replaces and removes them', async () => {
    const id = await cameraId();
    for (const url of [
      `/api/Webcam/SetConfiguration/configuration?webcamId=${id}&userId=${USER_ID}&quality=HIGH`,
      `/api/Webcam/SetConfiguration/configuration?webcamId=${id}&quality=LOW`,
      `/api/Webcam/SetConfiguration/configuration?webcamId=${id}&userId=${USER_ID}&quality=FULL`,
    ]) {
      expect((await call('POST', url, admin)).body).toBe('true');
    }
    const configurations = (
      await call('GET', `/api/Webcam/GetConfiguration/configuration?webcamId=${id}`, admin)
    ).json() as {
      id: number;
      user: { userName: string } | null;
      quality: string;
      webcam: { name: string };
    }[];
    expect(configurations.map((c) => [c.user?.userName ?? null, c.quality, c.webcam.name])).toEqual([
      ['rita_referer', 'FULL', 'Testkamera'],
      [null, 'LOW', 'Testkamera'],
    ]);
    await expect
      .poll(
        () =>
          events.filter((e) => e.subject === AccessChanged.subject && e.data.webcamId === id).at(-1)?.data
            .configurations,
      )
      .toEqual([
        { userId: USER_ID, quality: 'FULL' },
        { userId: null, quality: 'LOW' },
      ]);
    expect(
      (await call('POST', `/api/Webcam/SetConfiguration/configuration?webcamId=${id}&quality=BEST`, admin)).statusCode,
    ).toBe(400);
    expect(
      (
        await call(
          'DELETE',
          `/api/Webcam/RemoveConfiguration/configuration?configurationId=${configurations[1]?.id}`,
          admin,
        )
      ).body,
    ).toBe('true');
    expect(
      (
        await call(
          'DELETE',
          `/api/Webcam/RemoveConfiguration/configuration?configurationId=${configurations[1]?.id}`,
          admin,
        )
      ).statusCode,
    ).toBe(404);
  });

  it('saves referer bookings at day level with the referer page, replaces, appends and removes them', async () => {
    const id = await cameraId();
    const saved = await call('PUT', `/api/Webcam/SetReferer/referer?webcamId=${id}`, admin, {
      start: '2026-11-22T14:30:00.000Z',
      end: '2026-12-31T23:00:00.000Z',
      quality: 'HIGH',
      refererUserId,
    });
    expect(saved.statusCode).toBe(200);
    const booking = saved.json();
    expect(booking).toMatchObject({
      start: '2026-11-22',
      end: '2026-12-31',
      quality: 'HIGH',
      refererUserId,
      webcamId: id,
    });
    expect(booking.refererUserText).toContain('https://partner.example/see');
    const replaced = await call('PUT', `/api/Webcam/SetReferer/referer?webcamId=${id}`, admin, {
      ...booking,
      quality: 'FULL',
    });
    expect(replaced.json()).toMatchObject({ id: booking.id, quality: 'FULL' });
    const appended = await call('PUT', `/api/Webcam/SetReferer/referer?webcamId=${id}`, admin, {
      start: '2026-11-22',
      end: '2026-11-22',
      quality: 'POOR',
    });
    expect(appended.json()).toMatchObject({ refererUserId: null, quality: 'POOR' });
    expect(
      ((await call('GET', `/api/Webcam/GetReferers/referers?webcamId=${id}`, admin)).json() as unknown[]).length,
    ).toBe(2);
    await expect
      .poll(
        () => events.filter((e) => e.subject === AccessChanged.subject && e.data.webcamId === id).at(-1)?.data.bookings,
      )
      .toEqual([{ url: 'https://partner.example/see', start: '2026-11-22', end: '2026-12-31', quality: 'FULL' }]);

    const backwards = await call('PUT', `/api/Webcam/SetReferer/referer?webcamId=${id}`, admin, {
      start: '2026-12-02',
      end: '2026-12-01',
      quality: 'LOW',
    });
    expect([backwards.statusCode, backwards.json().message]).toEqual([
      400,
      'The booking must not end before it starts',
    ]);
    const unknownUser = await call('PUT', `/api/Webcam/SetReferer/referer?webcamId=${id}`, admin, {
      start: '2026-12-01',
      end: '2026-12-01',
      quality: 'LOW',
      refererUserId: 424242,
    });
    expect(unknownUser.statusCode).toBe(400);
    expect(
      (await call('DELETE', `/api/Webcam/RemoveReferer/referer?webcamId=${id}&refererId=${appended.json().id}`, admin))
        .body,
    ).toBe('true');
    expect(
      (await call('DELETE', `/api/Webcam/RemoveReferer/referer?webcamId=${id}&refererId=${appended.json().id}`, admin))
        .statusCode,
    ).toBe(404);
  });

  it('removes a camera with everything attached and announces it', async () => {
    const id = await cameraId();
    expect((await call('DELETE', '/api/Webcam/Delete', admin, { id, name: 'Testkamera' })).body).toBe('true');
    expect((await call('GET', `/api/Webcam/GetCameraById?id=${id}`)).statusCode).toBe(404);
    await expect.poll(() => events.some((e) => e.subject === CameraDeleted.subject && e.data.id === id)).toBe(true);
    expect((await call('DELETE', '/api/Webcam/Delete', admin, { id })).statusCode).toBe(404);
  });
});

describe('news text editing', () => {
  let webcam: WebcamTestService;
  beforeAll(async () => {
    webcam = await buildWebcamService({ keys });
  });
  afterAll(async () => webcam?.close());

  it('lets an admin change and clear the news; nobody else', async () => {
    const put = (headers: Record<string, string>, text: unknown) =>
      webcam.app.inject({ method: 'PUT', url: '/api/News/News/news', headers, payload: { text } });
    expect((await put({}, 'Hallo')).statusCode).toBe(401);
    expect((await put(user, 'Hallo')).statusCode).toBe(403);
    expect((await put(admin, 'x'.repeat(1001))).statusCode).toBe(400);
    expect((await put(admin, '  Neue Kamera in Stäfa!  ')).body).toBe('true');
    expect((await webcam.app.inject({ url: '/api/News/News/news' })).body).toBe('Neue Kamera in Stäfa!');
    await put(admin, '');
    expect((await webcam.app.inject({ url: '/api/News/News/news' })).body).toBe('');
  });
});
