import { CameraHealthChanged, type PayloadOf } from '@lakecams/contracts/messages';
import { ACCESS_COOKIE, imageNameOf } from '@lakecams/contracts';
import { ADMIN_ROLE, generateSigningKeys } from '@lakecams/service-kit';
import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildImagingService, imagingPartsOf, type ImagingTestService } from '../src/testing.ts';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const adminCookie = `${ACCESS_COOKIE}=${sign({ sub: '44444444-4444-4444-8444-444444444444', role: [ADMIN_ROLE] })}`;

// Two hours ago, on the minute: the routes read the real clock, the checks are given theirs.
const T0 = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 2 * 3600_000);
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

describe('camera health: one mail event per transition, however many replicas check', () => {
  let first: ImagingTestService;
  let second: ImagingTestService;
  const events: PayloadOf<typeof CameraHealthChanged>[] = [];

  const captured = (webcamId: number, minutes: number, status: 'done' | 'failed', contentHash: string | null) =>
    first.db
      .insertInto('captures')
      .values({
        webcamId,
        name: imageNameOf(at(minutes)),
        status,
        claimedBy: 'test',
        startedAt: at(minutes),
        contentHash,
        error: status === 'failed' ? 'Camera unreachable' : null,
      })
      .execute();
  /** Both replicas check at the same moment, twice. */
  const bothCheck = async (minutes: number) => {
    const counts = await Promise.all([
      imagingPartsOf(first.app).cameraHealth.check(at(minutes)),
      imagingPartsOf(second.app).cameraHealth.check(at(minutes)),
    ]);
    counts.push(
      ...(await Promise.all([
        imagingPartsOf(first.app).cameraHealth.check(at(minutes)),
        imagingPartsOf(second.app).cameraHealth.check(at(minutes)),
      ])),
    );
    return counts.reduce((sum, count) => sum + count, 0);
  };

  beforeAll(async () => {
    first = await buildImagingService({ keys });
    // A second replica on the same database and bus.
    second = await buildImagingService({ keys, bus: first.bus, database: first.database });
    await first.bus.consume<PayloadOf<typeof CameraHealthChanged>>(
      (message) => {
        events.push(message.data);
        message.ack();
      },
      { durable: 'test-camera-health', filter: CameraHealthChanged.subject },
    );
    await first.upsertCamera({ id: 1, name: 'Seeufer', intervalMin: 5 });
    await first.upsertCamera({ id: 2, name: 'Hafen', intervalMin: 10 });
    await captured(1, -10, 'done', 'a');
    await captured(1, -5, 'done', 'b');
    await captured(2, -1, 'done', 'c');
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('sends nothing while pictures arrive', async () => {
    expect(await bothCheck(1)).toBe(0);
  });

  it('shows late and failing on the job state and the health list', async () => {
    await captured(2, 0, 'failed', null);
    await captured(2, 5, 'failed', null);
    const state = (await first.app.inject({ url: '/api/Jobs/state', headers: { cookie: adminCookie } })).json() as {
      cameras: { webcamId: number; health: unknown; offline: unknown }[];
    };
    // The route reads the real clock: two hours later camera 1 is silent.
    expect(state.cameras.find((camera) => camera.webcamId === 1)).toMatchObject({
      offline: 'silent',
      health: { state: 'offline', since: at(-5).toISOString(), reason: 'silent' },
    });
    expect(
      (await imagingPartsOf(first.app).cameraHealth.read(at(6))).map(({ name, health }) => [name, health]),
    ).toEqual([
      ['Seeufer', { state: 'late', since: at(-5), reason: null }],
      ['Hafen', { state: 'failing', since: at(0), reason: 'Camera unreachable' }],
    ]);
    const list = await first.app.inject({ url: '/api/Jobs/health', headers: { cookie: adminCookie } });
    expect(list.statusCode).toBe(401);
    const token = adminCookie.slice(ACCESS_COOKIE.length + 1);
    const listed = await first.app.inject({ url: '/api/Jobs/health', headers: { authorization: `Bearer ${token}` } });
    expect(listed.json()).toHaveLength(2);
  });

  it('announces a silent camera once, even with two replicas checking', async () => {
    // Camera 1's last picture is from -5: silent after 15 minutes. Camera 2 fails, but is not silent for 30 minutes.
    expect(await bothCheck(9)).toBe(0);
    expect(await bothCheck(11)).toBe(1);
    await expect.poll(() => events.length).toBe(1);
    expect(events[0]).toMatchObject({
      webcamId: 1,
      camera: 'Seeufer',
      state: 'offline',
      since: at(-5).toISOString(),
      reason: 'silent',
    });
    expect(await bothCheck(12)).toBe(0);
  });

  it('announces once that it is back, and nothing more while nothing changes', async () => {
    await captured(1, 13, 'done', 'd');
    expect(await bothCheck(14)).toBe(1);
    await expect.poll(() => events.length).toBe(2);
    expect(events[1]).toMatchObject({ webcamId: 1, state: 'back', since: at(14).toISOString(), reason: null });
    expect(await bothCheck(15)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(events.map((event) => `${event.camera} ${event.state}`)).toEqual(['Seeufer offline', 'Seeufer back']);
  });
});
