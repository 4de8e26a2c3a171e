import { ADMIN_ROLE, generateSigningKeys } from '@lakecams/service-kit';
import { createSigner } from 'fast-jwt';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRefererService, type RefererTestService } from '../src/testing.ts';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const admin = { authorization: `Bearer ${sign({ sub: '11111111-1111-4111-8111-111111111111', role: [ADMIN_ROLE] })}` };

describe('svc-referer answers bad input 400 and logs every failed look-up (svc-webcam not running)', () => {
  const logged: { level: number; msg: string; err?: { message?: string; stack?: string } }[] = [];
  let referer: RefererTestService;

  beforeAll(async () => {
    referer = await buildRefererService({
      keys,
      logger: pino({ level: 'warn' }, { write: (line: string) => logged.push(JSON.parse(line)) }),
    });
  });
  afterAll(async () => referer?.close());

  it('refuses a NUL character in a page url with 400, not "please retry"', async () => {
    for (const [url, message] of [
      ['/api/Referer/GetCameras/Cameras?url=%00', 'querystring/url must not contain NUL characters'],
      ['/api/Referer/GetLayer/layer?url=%00&level=BASE&cameraId=1', 'querystring/url must not contain NUL characters'],
      [
        '/api/Referer/GetLayer/layer?url=x&level=BASE&cameraId=132995288337834272',
        'querystring/cameraId must be <= 2147483647',
      ],
    ]) {
      const answer = await referer.app.inject({ url, headers: admin });
      expect([answer.statusCode, answer.json()], url).toEqual([
        400,
        { statusCode: 400, error: 'Bad Request', message },
      ]);
    }
  });

  it('answers 503 when the bookings cannot be read, and logs why', async () => {
    const answer = await referer.app.inject({ url: '/api/Referer/GetCameras/Cameras', headers: admin });
    expect([answer.statusCode, answer.json().message]).toEqual([
      503,
      'Camera bookings cannot be read right now, please retry',
    ]);
    // The cause (nobody answered on the bus) is in the log, not in the answer.
    expect(logged.map((line) => line.err?.stack ?? '')).toContainEqual(expect.stringContaining('no responders'));
    expect(answer.body).not.toContain('no responders');
  });
});
