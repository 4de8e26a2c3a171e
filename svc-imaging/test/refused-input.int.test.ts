import { imageNameOf } from '@lakecams/contracts';
import { ADMIN_ROLE, generateSigningKeys, type ServiceApp } from '@lakecams/service-kit';
import { createSigner } from 'fast-jwt';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureTick } from '../src/capture/capture-tick.ts';
import { buildImagingService, imagingPartsOf, type ImagingTestService } from '../src/testing.ts';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const admin = { authorization: `Bearer ${sign({ sub: '11111111-1111-4111-8111-111111111111', role: [ADMIN_ROLE] })}` };
const partner = { authorization: `Bearer ${sign({ sub: '22222222-2222-4222-8222-222222222222', role: ['Referer'] })}` };

describe('svc-imaging refuses positions from minutes that are no pictures, and says why look-ups fail', () => {
  const logged: { err?: { stack?: string } }[] = [];
  let service: ImagingTestService;
  let app: ServiceApp;

  beforeAll(async () => {
    service = await buildImagingService({
      keys,
      logger: pino({ level: 'warn' }, { write: (line: string) => logged.push(JSON.parse(line)) }),
    });
    app = service.app;
    const camera = await service.upsertCamera({ id: 1, name: 'Seeufer' });
    const picture = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#4a90d9' } })
      .jpeg()
      .toBuffer();
    await captureTick({ ...imagingPartsOf(app).capture.context, source: async () => picture }, camera, new Date());
  });
  afterAll(async () => {
    await service?.close();
  });

  /** The camera's position and the positions of its pictures, which a refused request must leave alone. */
  async function positions() {
    const { db } = service;
    return {
      camera: await db.selectFrom('cameras').select(['lat', 'lng', 'direction']).where('webcamId', '=', 1).execute(),
      captures: await db.selectFrom('captures').select(['name', 'lat', 'lng', 'direction']).orderBy('name').execute(),
    };
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
