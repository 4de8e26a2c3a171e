import { type Bus, createNatsBus } from '@lakecams/bus';
import { ADMIN_ROLE, buildServiceApp, createLogger, generateSigningKeys, type ServiceApp } from '@lakecams/service-kit';
import { createTestDatabase, freePort } from '@lakecams/service-kit/testing';
import { imagingService } from '@lakecams/svc-imaging';
import { imagingPartsOf } from '@lakecams/svc-imaging/testing';
import { webcamService } from '@lakecams/svc-webcam';
import { createSigner } from 'fast-jwt';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, testNatsServer } from './test-nats-server.ts';

const keys = generateSigningKeys();
const admin = {
  authorization: `Bearer ${createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 })({ sub: '11111111-1111-4111-8111-111111111111', role: [ADMIN_ROLE] })}`,
};

describe('NATS stops and comes back: services keep serving, recover by themselves, and lose no event', () => {
  const logger = createLogger('silent');
  const databases: Awaited<ReturnType<typeof createTestDatabase>>[] = [];
  const apps: ServiceApp[] = [];
  const buses: Bus[] = [];
  let nats: ReturnType<typeof testNatsServer>;
  let storeDir: string;
  let imageDir: string;
  let webcam: ServiceApp;
  let imaging: ServiceApp;
  const faults = { natsRestarts: 0, serviceRestarts: 0, eventsDuringOutage: 0 };

  async function startService(definition: typeof webcamService | typeof imagingService, databaseUrl: string) {
    const bus = await createNatsBus({ servers: nats.url, name: `faults-${definition.name}` });
    buses.push(bus);
    const app = await buildServiceApp(definition as typeof webcamService, {
      bus,
      logger,
      databaseUrl,
      jwtPublicKey: keys.publicKey,
      options: (definition.name === 'imaging' ? { storeDir: imageDir, schedule: false } : {}) as never,
    });
    apps.push(app);
    return app;
  }
  const saveCamera = (name: string) =>
    webcam.inject({
      method: 'POST',
      url: '/api/Webcam/Set',
      headers: admin,
      payload: {
        id: 0,
        name,
        pattern: 'http://127.0.0.1:9/x.jpg',
        distance: 3,
        angle: 50,
        intervalMin: 10,
        webcamType: 'STATIC',
      },
    });
  const imagingKnows = (app: ServiceApp, name: string) => async () =>
    (await imagingPartsOf(app).cameraDirectory.list()).some((camera) => camera.name === name);

  beforeAll(async () => {
    storeDir = await mkdtemp(join(tmpdir(), 'lakecams-nats-fault-'));
    imageDir = await mkdtemp(join(tmpdir(), 'lakecams-nats-fault-images-'));
    nats = testNatsServer(await freePort(), storeDir);
    await nats.start();
    databases.push(await createTestDatabase('webcam'), await createTestDatabase('imaging'));
    webcam = await startService(webcamService, databases[0]?.url as string);
    imaging = await startService(imagingService, databases[1]?.url as string);
  }, 60_000);

  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => undefined);
    for (const bus of buses) await bus.close().catch(() => undefined);
    await nats?.stop().catch(() => undefined);
    for (const database of databases) await database.drop();
    await rm(storeDir, { recursive: true, force: true });
    await rm(imageDir, { recursive: true, force: true });
    console.log(
      `faults survived: NATS restarts ${faults.natsRestarts}, service restarts ${faults.serviceRestarts}, events published during the outage ${faults.eventsDuringOutage} (none lost)`,
    );
  });

  it('delivers events before the outage', async () => {
    expect((await saveCamera('Vorher')).body).toBe('true');
    await eventually(imagingKnows(imaging, 'Vorher'), 'svc-imaging to learn of the camera');
  });

  it('keeps serving reads and accepting changes while NATS is down, and catches up when it is back', async () => {
    await nats.stop();
    await eventually(async () => !webcam.bus.isConnected(), 'the bus to notice the outage', 10_000);
    const ready = await webcam.inject({ url: '/ready' });
    expect(ready.statusCode).toBe(503);

    const cameras = await webcam.inject({ url: '/api/Webcam/GetCameras' });
    expect(cameras.statusCode).toBe(200);
    expect((cameras.json() as { name: string }[]).map((c) => c.name)).toContain('Vorher');
    for (const name of ['Waehrend-1', 'Waehrend-2']) {
      const saved = await saveCamera(name);
      expect([saved.statusCode, saved.body]).toEqual([200, 'true']);
      faults.eventsDuringOutage++;
    }
    expect(await webcam.outboxPending?.()).toBeGreaterThanOrEqual(2);

    await nats.start();
    faults.natsRestarts++;
    // No restart of any service: the bus reconnects, the outbox drains, consumers resume.
    await eventually(imagingKnows(imaging, 'Waehrend-2'), 'the cameras saved during the outage to arrive', 40_000);
    expect(await imagingKnows(imaging, 'Waehrend-1')()).toBe(true);
    await eventually(async () => (await webcam.outboxPending?.()) === 0, 'the outbox to drain');
    expect((await webcam.inject({ url: '/ready' })).statusCode).toBe(200);
  }, 90_000);

  it('keeps events for a consumer that is down, and hands them over when it restarts', async () => {
    const imagingDatabase = databases[1]?.url as string;
    await imaging.close();
    faults.serviceRestarts++;
    expect((await saveCamera('Waehrend-Neustart')).body).toBe('true');
    await eventually(async () => (await webcam.outboxPending?.()) === 0, 'the event to be stored in JetStream');
    imaging = await startService(imagingService, imagingDatabase);
    await eventually(imagingKnows(imaging, 'Waehrend-Neustart'), 'the restarted svc-imaging to catch up');
  }, 60_000);
});
