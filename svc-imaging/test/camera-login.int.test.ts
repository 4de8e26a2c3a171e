import { ACCESS_COOKIE } from '@lakecams/contracts';
import { CameraApplied } from '@lakecams/contracts/messages';
import { ADMIN_ROLE, generateSigningKeys } from '@lakecams/service-kit';
import { buildImagingService, type ImagingTestService } from '@lakecams/svc-imaging/testing';
import { createSigner } from 'fast-jwt';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDigestCamera } from './camera-servers.ts';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const adminCookie = `${ACCESS_COOKIE}=${sign({ sub: '11111111-1111-4111-8111-111111111111', role: [ADMIN_ROLE] })}`;
describe('a camera whose URL holds its login', () => {
  let service: ImagingTestService;
  let camera: Awaited<ReturnType<typeof startDigestCamera>>;
  const logged: string[] = [];
  const published: string[] = [];

  beforeAll(async () => {
    const picture = await sharp({ create: { width: 1280, height: 720, channels: 3, background: '#2f6f8f' } })
      .jpeg()
      .toBuffer();
    camera = await startDigestCamera(picture);
    service = await buildImagingService({
      keys,
      logger: pino({ level: 'debug' }, { write: (line: string) => logged.push(line) }),
      options: { fetchLimits: { timeoutMs: 5_000, maxBytes: 5 * 1024 * 1024, retries: 1 } },
    });
    // Everything svc-imaging tells the others: its events and the notices between its replicas.
    await service.bus.follow('imaging.>', (message) => {
      published.push(JSON.stringify(message.data));
    });
    await service.bus.subscribe(CameraApplied.subject, (message) => {
      published.push(JSON.stringify(message.data));
    });
  });

  afterAll(async () => {
    await service?.close();
    await camera?.close();
  });

  const retry = async (webcamId: number) =>
    service.app.inject({
      method: 'POST',
      url: `/api/Jobs/retry?webcamId=${webcamId}`,
      headers: { cookie: adminCookie },
    });

  it('is captured from a camera that asks Digest', async () => {
    await service.upsertCamera({ id: 1, name: 'Hafen', pattern: camera.url('kamera:secret') });
    const answer = await retry(1);
    expect(answer.json()).toMatchObject({ outcome: 'captured', image: { webcamId: 1 } });
    const captured = await service.db
      .selectFrom('captures')
      .select(['status', 'width'])
      .where('webcamId', '=', 1)
      .execute();
    expect(captured).toEqual([{ status: 'done', width: 1280 }]);
  });

  it('tells why a wrong login fails, and nowhere the password', async () => {
    await service.upsertCamera({ id: 2, name: 'Hafen-falsch', pattern: camera.url('kamera:secret-but-wrong') });
    const answer = await retry(2);
    const state = await service.app.inject({ url: '/api/Jobs/state', headers: { cookie: adminCookie } });
    const failures = await service.db.selectFrom('captures').select('error').where('status', '=', 'failed').execute();
    // What was said about it has arrived: the failure's event and the camera's notice to the replicas.
    await expect.poll(() => published.some((data) => data.includes('Camera'))).toBe(true);
    await expect.poll(() => published.some((data) => data.includes('"name":"Hafen-falsch"'))).toBe(true);
    expect(answer.body).not.toContain('secret');
    expect(state.body).not.toContain('secret');
    expect(JSON.stringify(failures)).not.toContain('secret');
    expect(published.filter((data) => data.includes('secret'))).toEqual([]);
    expect(logged.some((line) => line.includes('capture failed'))).toBe(true);
    expect(logged.filter((line) => line.includes('secret'))).toEqual([]);
    expect(answer.json()).toEqual({ outcome: 'failed', error: 'Camera refused the login (Digest)' });
    expect(state.statusCode).toBe(200);
    expect(state.json().failures[0]).toMatchObject({
      camera: 'Hafen-falsch',
      error: 'Camera refused the login (Digest)',
    });
  });
});
