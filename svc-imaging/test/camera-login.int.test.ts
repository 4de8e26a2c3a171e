import { ACCESS_COOKIE } from '@lakecams/contracts';
import { CameraApplied } from '@lakecams/contracts/messages';
import { ADMIN_ROLE, generateSigningKeys } from '@lakecams/service-kit';
import { buildImagingService, type ImagingTestService } from '@lakecams/svc-imaging/testing';
import { createSigner } from 'fast-jwt';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const adminCookie = `${ACCESS_COOKIE}=${sign({ sub: '11111111-1111-4111-8111-111111111111', role: [ADMIN_ROLE] })}`;
const REALM = 'Hafenkamera';
const NONCE = '5e3f0c1b9a7d';

/** An IP camera that asks Digest (MD5, qop=auth) and delivers a JPEG to `kamera` with the password `secret`. */
async function startDigestCamera(picture: Buffer) {
  const md5 = (text: string) => createHash('md5').update(text).digest('hex');
  const server: Server = createServer((request, response) => {
    const fields = Object.fromEntries(
      [...(request.headers.authorization ?? '').matchAll(/(\w+)="?([^",]*)"?/g)].map(([, k, v]) => [k, v]),
    );
    const ha1 = md5(`kamera:${REALM}:secret`);
    const ha2 = md5(`GET:${fields.uri}`);
    const expected = md5(`${ha1}:${NONCE}:${fields.nc}:${fields.cnonce}:auth:${ha2}`);
    if (fields.username === 'kamera' && fields.response === expected) {
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      return response.end(picture);
    }
    response.writeHead(401, { 'www-authenticate': `Digest realm="${REALM}", qop="auth", nonce="${NONCE}"` });
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    /** The camera's URL with a login in it. */
    url: (login: string) => `http://${login}@127.0.0.1:${port}/snapshot.jpg`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

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
