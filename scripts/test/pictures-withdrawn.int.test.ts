import { AccessChanged } from '@lakecams/contracts/messages';
import { buildGateway, type ServiceTargets } from '@lakecams/gateway';
import { createLogger } from '@lakecams/service-kit';
import { buildImagingService, captureTick, type ImagingTestService } from '@lakecams/svc-imaging/testing';
import type { FastifyInstance } from 'fastify';
import { tmpdir } from 'node:os';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The gateway with its picture memory on, in front of svc-imaging on the same bus (as `npm start` runs them):
 * a level that stops being public is refused at once, though the gateway had kept its picture.
 */
describe('a public level withdrawn through the gateway', () => {
  let imaging: ImagingTestService;
  let gateway: FastifyInstance;

  beforeAll(async () => {
    imaging = await buildImagingService();
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
    await captureTick({ ...imaging.app.captureContext, source: async () => picture }, camera, new Date());
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
  const pictureName = async () =>
    String((await gateway.inject({ url: '/api/Image/Get/camera/Seeufer.jpg' })).headers.location);

  it('refuses the LOW name once the setting for all users is removed, though the gateway kept it', async () => {
    await announce([{ userId: null, quality: 'LOW' }]);
    await expect.poll(pictureName).toContain('-LOW-');
    const low = await pictureName();
    const poor = low.replace('-LOW-', '-POOR-');
    const first = await gateway.inject({ url: low });
    const again = await gateway.inject({ url: low });
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    // Public only while the setting lasts: a CDN keeps it a day at most, POOR a year.
    expect(first.headers['cache-control']).toBe('public, max-age=86400, immutable');
    expect((await gateway.inject({ url: poor })).headers['cache-control']).toBe('public, max-age=31536000, immutable');

    await announce([]);
    await expect.poll(async () => (await gateway.inject({ url: low })).statusCode).toBe(403);
    expect(await pictureName()).toContain('-POOR-');
    expect((await gateway.inject({ url: poor })).statusCode).toBe(200);
  });
});
