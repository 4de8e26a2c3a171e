import { CameraUpserted, UserChanged } from '@lakecams/contracts/messages';
import { ADMIN_ROLE, generateSigningKeys } from '@lakecams/service-kit';
import { createSigner } from 'fast-jwt';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildWebcamService, type WebcamTestService } from '../src/testing.ts';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const admin = { authorization: `Bearer ${sign({ sub: '11111111-1111-4111-8111-111111111111', role: [ADMIN_ROLE] })}` };
const USER_ID = '22222222-2222-4222-8222-222222222222';

describe('svc-webcam: a change is stored only with its event', () => {
  const events: { subject: string; data: { name?: string; permittedUserIds?: string[] } }[] = [];
  let webcam: WebcamTestService;

  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) => {
    const response = await webcam.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, json: () => response.json() };
  };
  const saveCamera = (name: string, id = 0) =>
    call('POST', '/api/Webcam/Set', {
      id,
      name,
      pattern: `http://127.0.0.1:9/${name}.jpg`,
      distance: 3,
      angle: 50,
      intervalMin: 10,
      webcamType: 'STATIC',
    });
  const cameraNames = async () =>
    ((await call('GET', '/api/Webcam/GetCameras')).json() as { name: string }[]).map((c) => c.name);
  /** PostgreSQL stops answering exactly when the event is written: the moment a crash used to lose it. */
  const outboxFails = async (fails: boolean) => {
    const { db } = webcam;
    if (!fails) return void (await sql`drop trigger outbox_fails on lakecams_outbox`.execute(db));
    await sql`create or replace function outbox_fails() returns trigger language plpgsql as $$
      begin raise exception 'the database went away' using errcode = '57P03'; end $$`.execute(db);
    await sql`create trigger outbox_fails before insert on lakecams_outbox
      for each row execute function outbox_fails()`.execute(db);
  };
  const eventually = async (check: () => boolean, what: string) => {
    const deadline = Date.now() + 10_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    webcam = await buildWebcamService({ keys });
    await webcam.bus.consume<(typeof events)[number]['data']>(
      (message) => {
        events.push({ subject: message.subject, data: message.data });
        message.ack();
      },
      { durable: 'events-test', filter: 'webcam.>' },
    );
    await webcam.bus.publishEvent(UserChanged.subject, {
      id: USER_ID,
      userName: 'rita_referer',
      email: 'rita_referer@example.org',
      emailConfirmed: true,
      change: 'created',
    });
    // The access change below is refused for its event, not for a user svc-webcam has not heard of yet.
    await vi.waitFor(
      async () =>
        expect(
          await webcam.db.selectFrom('knownUsers').select('id').where('id', '=', USER_ID).executeTakeFirst(),
        ).toBeDefined(),
      { timeout: 30_000, interval: 50 },
    );
  });

  afterAll(async () => webcam?.close());

  it('keeps camera, access and removal as they were when the event cannot be written, and sends no event', async () => {
    expect((await saveCamera('Bleibt')).status).toBe(200);
    const [kept] = (await call('GET', '/api/Webcam/GetCameras')).json() as { id: number }[];
    const id = kept?.id as number;
    await eventually(() => events.some((e) => e.data.name === 'Bleibt'), 'the first camera event');

    await outboxFails(true);
    try {
      expect((await saveCamera('Verloren')).status).toBe(503);
      expect((await saveCamera('Umbenannt', id)).status).toBe(503);
      expect((await call('POST', `/api/Webcam/SetUsers/users?webcamId=${id}`, [USER_ID])).status).toBe(503);
      expect((await call('DELETE', '/api/Webcam/Delete', { id })).status).toBe(503);
    } finally {
      await outboxFails(false);
    }
    expect(await cameraNames()).toEqual(['Bleibt']);
    expect((await call('GET', `/api/Webcam/GetUsers/users?webcamId=${id}`)).json()).toEqual([]);

    // Events leave in order: once this one is here, one of a refused change would be too.
    expect((await saveCamera('Danach')).status).toBe(200);
    await eventually(() => events.some((e) => e.data.name === 'Danach'), 'the later camera event');
    expect(events.map((e) => `${e.subject} ${e.data.name}`)).toEqual([
      `${CameraUpserted.subject} Bleibt`,
      `${CameraUpserted.subject} Danach`,
    ]);
  });
});
