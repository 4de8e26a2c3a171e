import { DEMO_SOURCE_BASE, imageNameOf } from '@lakecams/contracts';
import {
  buildImagingService,
  imagingPartsOf,
  captureTick,
  type ImagingTestService,
} from '@lakecams/svc-imaging/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const TICK = new Date('2026-06-01T10:00:00Z');

describe('demo cameras, rendered inside svc-imaging', () => {
  let service: ImagingTestService;

  beforeAll(async () => {
    service = await buildImagingService({ options: { demoSource: true, demoBackfillMinutes: 0 } });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('capture at their seeded address and at the one an earlier portal stored, where nothing answers', async () => {
    // An earlier `npm start` pointed its demo cameras at its own port; port 9 stands for one nobody serves.
    const patterns = [`${DEMO_SOURCE_BASE}/Seeblick.jpg`, 'http://127.0.0.1:9/api/Image/DemoSource/Altdaten.jpg'];
    for (const [index, pattern] of patterns.entries()) {
      const camera = await service.upsertCamera({ id: index + 1, name: `Demo-${index + 1}`, pattern });
      const outcome = await captureTick(imagingPartsOf(service.app).capture.context, camera, TICK);
      expect([pattern, outcome]).toMatchObject([pattern, { outcome: 'captured' }]);
    }
    // This tick's pictures only: the start's own capture of the current minute may still be under way.
    const sizes = await service.db
      .selectFrom('captures')
      .select(['width', 'height'])
      .where('name', '=', imageNameOf(TICK))
      .distinct()
      .execute();
    expect(sizes).toEqual([{ width: 2560, height: 1440 }]);
  });

  it('are fetched like any camera when the demo source is off, and nothing serves their picture', async () => {
    await service.restart({ demoSource: false, fetchLimits: { timeoutMs: 2_000, maxBytes: 1024, retries: 0 } });
    const camera = await service.upsertCamera({ id: 3, name: 'Demo-3', pattern: `${DEMO_SOURCE_BASE}/Demo-3.jpg` });
    const outcome = await captureTick(
      imagingPartsOf(service.app).capture.context,
      camera,
      new Date('2026-06-01T10:00:00Z'),
    );
    expect(outcome).toMatchObject({ outcome: 'failed', error: expect.stringMatching(/^Camera unreachable/) });
    await service.restart({ demoSource: true });
    expect((await service.app.inject({ url: '/api/Image/DemoSource/Demo-1.jpg' })).statusCode).toBe(404);
  });
});
