import { openImagingDatabase } from '../src/testing.ts';
import { CameraUpserted } from '@lakecams/contracts/messages';
import { createInProcessBus } from '@lakecams/bus';
import { imageNameOf } from '@lakecams/contracts';
import { ADMIN_ROLE, buildServiceApp, generateSigningKeys, type ServiceApp } from '@lakecams/service-kit';
import { createTestDatabase } from '@lakecams/service-kit/testing';
import { createSigner } from 'fast-jwt';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imagingService } from '../src/app.ts';
import { captureTick } from '../src/capture/capture-tick.ts';
import type { CameraRow } from '../src/database.ts';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const admin = { authorization: `Bearer ${sign({ sub: '11111111-1111-4111-8111-111111111111', role: [ADMIN_ROLE] })}` };
const partner = { authorization: `Bearer ${sign({ sub: '22222222-2222-4222-8222-222222222222', role: ['Referer'] })}` };

describe('svc-imaging refuses positions from minutes that are no pictures, and says why look-ups fail', () => {
  const bus = createInProcessBus();
  const logged: { err?: { stack?: string } }[] = [];
  let app: ServiceApp;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let storeDir: string;
  let camera: CameraRow;

  beforeAll(async () => {
    database = await createTestDatabase('imaging');
    storeDir = await mkdtemp(join(tmpdir(), 'lakecams-refused-'));
    app = await buildServiceApp(imagingService, {
      bus,
      logger: pino({ level: 'warn' }, { write: (line: string) => logged.push(JSON.parse(line)) }),
      databaseUrl: database.url,
      jwtPublicKey: keys.publicKey,
      options: { storeDir, schedule: false },
    });
    await bus.publishEvent(CameraUpserted.subject, {
      id: 1,
      name: 'Seeufer',
      pattern: 'http://127.0.0.1:9/x.jpg',
      intervalMin: 5,
      distance: 5,
      angle: 60,
      webcamType: 'STATIC',
    });
    for (let tries = 0; tries < 200; tries++) {
      const known = await app.cameraDirectory.byId(1);
      if (known) {
        camera = known;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const picture = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#4a90d9' } })
      .jpeg()
      .toBuffer();
    await captureTick({ ...app.captureContext, source: async () => picture }, camera, new Date());
  });
  afterAll(async () => {
    await app?.close();
    await bus.close();
    await database?.drop();
    await rm(storeDir, { recursive: true, force: true });
  });

  /** The camera's position and the positions of its pictures, which a refused request must leave alone. */
  async function positions() {
    const db = openImagingDatabase(database.url);
    try {
      return {
        camera: await db.selectFrom('cameras').select(['lat', 'lng', 'direction']).where('webcamId', '=', 1).execute(),
        captures: await db.selectFrom('captures').select(['name', 'lat', 'lng', 'direction']).orderBy('name').execute(),
      };
    } finally {
      await db.destroy();
    }
  }
  const setPosition = (name: string) =>
    app.inject({
      method: 'POST',
      url: '/api/Image/SetPosition/set',
      headers: admin,
      payload: { webcamId: 1, lat: 47.23, lng: 8.72, direction: 120, name },
    });

  it('answers a position named "999999999999" or a later minute with 400 and stores nothing', async () => {
    const before = await positions();
    const noDate = await setPosition('999999999999');
    expect([noDate.statusCode, noDate.json().message]).toEqual([400, 'body/name is not a valid date']);
    const later = await setPosition('209901010000');
    expect([later.statusCode, later.json().message]).toEqual([
      400,
      'body/name lies in the future: 209901010000 has no picture yet',
    ]);
    expect(await positions()).toEqual(before);
    const now = await setPosition(imageNameOf(new Date()));
    expect(now.statusCode).toBe(200);
    expect((await positions()).camera).toEqual([{ lat: 47.23, lng: 8.72, direction: 120 }]);
  });

  it('refuses a camera id beyond PostgreSQL integer, and anonymous uploads before reading them', async () => {
    const big = await app.inject({
      method: 'POST',
      url: '/api/Image/Upload?webcamId=132995288337834272',
      headers: { ...admin, 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--\r\n',
    });
    expect([big.statusCode, big.json().message]).toEqual([400, 'querystring/webcamId must be <= 2147483647']);
    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/Image/Upload?webcamId=x',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: 'not multipart',
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it("answers a page preview 503 when the page's owner cannot be looked up, and logs why", async () => {
    const answer = await app.inject({
      url: '/api/Image/Get/camera/Seeufer.jpg?page=https://partner.example/',
      headers: partner,
    });
    expect([answer.statusCode, answer.json().message]).toEqual([
      503,
      'Page owners cannot be read right now, please retry',
    ]);
    expect(logged.map((line) => line.err?.stack ?? '')).toContainEqual(expect.stringContaining('no responders'));
  });
});
