import { AccessChanged } from '@lakecams/contracts/messages';
import { buildGateway, type ServiceTargets } from '@lakecams/gateway';
import { createLogger, generateSigningKeys } from '@lakecams/service-kit';
import {
  buildImagingService,
  captureTick,
  imagingPartsOf,
  type ImagingTestService,
} from '@lakecams/svc-imaging/testing';
import type { FastifyInstance } from 'fastify';
import { createSigner } from 'fast-jwt';
import { tmpdir } from 'node:os';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
/** Signed in, without a configuration of its own: one of "all other users". */
const member = { authorization: `Bearer ${sign({ sub: '99999999-9999-4999-8999-999999999999', role: [] })}` };

/**
 * The gateway with its picture memory on, in front of svc-imaging on the same bus (as `npm start` runs them):
 * a level above POOR is never public, though the gateway keeps its picture for those it is signed for.
 */
describe('levels above the public one through the gateway', () => {
  let imaging: ImagingTestService;
  let gateway: FastifyInstance;

  beforeAll(async () => {
    imaging = await buildImagingService({ keys });
    const unused = { kind: 'remote' as const, urls: ['http://127.0.0.1:9'] };
    const targets: ServiceTargets = {
      identity: unused,
      webcam: unused,
      referer: unused,
      imaging: { kind: 'local', app: imaging.app },
    };
    gateway = await buildGateway({
      logger: createLogger('silent'),
      targets,
      frontendRoot: tmpdir(),
      remotes: {},
      bus: imaging.bus,
      pictureCacheBytes: 8 * 1024 * 1024,
    });
    const camera = await imaging.upsertCamera({ id: 5, name: 'Seeufer' });
    const picture = await sharp({ create: { width: 1920, height: 1080, channels: 3, background: '#3a7bd5' } })
      .jpeg()
      .toBuffer();
    await captureTick(
      { ...imagingPartsOf(imaging.app).capture.context, source: async () => picture },
      camera,
      new Date(),
    );
  });

  afterAll(async () => {
    await gateway?.close();
    await imaging?.close();
  });

  const announce = (configurations: { userId: string | null; quality: 'LOW' }[]) =>
    imaging.bus.publishEvent(AccessChanged.subject, {
      webcamId: 5,
      permittedUserIds: [],
      bookings: [],
      configurations,
    });
  const pictureName = async (headers: Record<string, string> = {}) =>
    String((await gateway.inject({ url: '/api/Image/Get/camera/Seeufer.jpg', headers })).headers.location);

  it('refuses the unsigned LOW name of "all other users", though the gateway kept the signed one', async () => {
    await announce([{ userId: null, quality: 'LOW' }]);
    await expect.poll(() => pictureName(member)).toContain('-LOW-');
    const low = await pictureName(member);
    expect(low).toMatch(/\?e=\d+&s=/);
    const first = await gateway.inject({ url: low });
    const again = await gateway.inject({ url: low });
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    const poor = await pictureName();
    expect(poor).toContain('-POOR-');
    expect((await gateway.inject({ url: poor })).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await gateway.inject({ url: low.split('?')[0] as string })).statusCode).toBe(403);
  });
});
