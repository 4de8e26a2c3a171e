import { CameraUpserted } from '@lakecams/contracts/messages';
import { type Bus, createNatsBus, type Subscription } from '@lakecams/bus';
import type { Webcam } from '@lakecams/contracts';
import {
  ADMIN_ROLE,
  buildServiceApp,
  createKysely,
  createLogger,
  generateSigningKeys,
  type ServiceApp,
} from '@lakecams/service-kit';
import { freePort, testDatabasePrefix } from '@lakecams/service-kit/testing';
import { imagingService } from '@lakecams/svc-imaging';
import { imagingPartsOf } from '@lakecams/svc-imaging/testing';
import { createSigner } from 'fast-jwt';
import { sql } from 'kysely';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, testNatsServer } from './test-nats-server.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const keys = generateSigningKeys();
const adminToken = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 })({
  sub: '11111111-1111-4111-8111-111111111111',
  role: [ADMIN_ROLE],
});
const camera = (name: string) => ({
  id: 0,
  name,
  pattern: `http://127.0.0.1:9/${name}.jpg`,
  distance: 3,
  angle: 50,
  intervalMin: 10,
  webcamType: 'STATIC',
});

describe('svc-webcam killed after a commit, before its relay: the event arrives once when it is back', () => {
  const databases = testDatabasePrefix();
  const logger = createLogger('silent');
  let nats: ReturnType<typeof testNatsServer>;
  let storeDir: string;
  let imageDir: string;
  let testBus: Bus;
  let imagingBus: Bus;
  let imaging: ServiceApp;
  let upserts: Subscription;
  let webcamDb: ReturnType<typeof createKysely<unknown>>;
  let webcam: { child: ChildProcess; url: string } | undefined;
  /** Every camera event the stream delivered, in order, as a consumer of its own sees them. */
  const delivered: Webcam[] = [];

  async function startWebcam() {
    const port = await freePort();
    const child = spawn(process.execPath, ['svc-webcam/src/server.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...databases.environment(['webcam']),
        HOST: '127.0.0.1',
        PORT: String(port),
        NATS_URL: nats.url,
        JWT_PUBLIC_KEY: keys.publicKey,
        DEMO_CAMERAS: 'false',
        LOG_LEVEL: 'warn',
      },
      stdio: 'ignore',
    });
    webcam = { child, url: `http://127.0.0.1:${port}` };
    await eventually(async () => (await fetch(`${webcam?.url}/ready`)).ok, 'svc-webcam to be ready');
  }
  async function stopWebcam(signal: NodeJS.Signals) {
    const child = webcam?.child;
    webcam = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }
  const saveCamera = async (name: string) => {
    const response = await fetch(`${webcam?.url}/api/Webcam/Set`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(camera(name)),
    });
    return { status: response.status, body: await response.text() };
  };
  const waitingEvents = async () =>
    Number((await sql<{ n: number }>`select count(*) as n from lakecams_outbox`.execute(webcamDb)).rows[0]?.n);
  const imagingKnows = (name: string) => async () =>
    (await imagingPartsOf(imaging).cameraDirectory.byName(name)) !== undefined;

  beforeAll(async () => {
    storeDir = await mkdtemp(join(tmpdir(), 'lakecams-crash-nats-'));
    imageDir = await mkdtemp(join(tmpdir(), 'lakecams-crash-images-'));
    nats = testNatsServer(await freePort(), storeDir);
    await nats.start();
    testBus = await createNatsBus({ servers: nats.url, name: 'crash-test', logger });
    imagingBus = await createNatsBus({ servers: nats.url, name: 'crash-test-imaging', logger });
    imaging = await buildServiceApp(imagingService, {
      bus: imagingBus,
      logger,
      databaseUrl: databases.urlOf('imaging'),
      jwtPublicKey: keys.publicKey,
      options: { storeDir: imageDir, schedule: false },
    });
    upserts = await testBus.consume<Webcam>(
      (message) => {
        delivered.push(message.data);
        message.ack();
      },
      { durable: 'crash-test-upserts', filter: CameraUpserted.subject },
    );
    await startWebcam();
    webcamDb = createKysely<unknown>({ connectionString: databases.urlOf('webcam') });
  }, 90_000);

  afterAll(async () => {
    await stopWebcam('SIGTERM');
    await upserts?.unsubscribe();
    await imaging?.close();
    await imagingBus?.close();
    await testBus?.close();
    await webcamDb?.destroy();
    await nats?.stop().catch(() => undefined);
    await databases.dropAll(['webcam', 'imaging']);
    await rm(storeDir, { recursive: true, force: true });
    await rm(imageDir, { recursive: true, force: true });
  });

  it('keeps the event with the committed camera, relays it after the restart, and only once', async () => {
    // The bus is away: the camera and its event commit, and the relay cannot hand the event over.
    await nats.stop();
    await eventually(async () => (await fetch(`${webcam?.url}/ready`)).status === 503, 'svc-webcam to miss NATS');
    expect(await saveCamera('Absturz')).toEqual({ status: 200, body: 'true' });
    expect(await waitingEvents()).toBe(1);
    await stopWebcam('SIGKILL');

    await nats.start();
    await startWebcam();
    await eventually(imagingKnows('Absturz'), 'svc-imaging to learn of the camera', 40_000);
    await eventually(async () => (await waitingEvents()) === 0, 'the outbox to drain');
    // The stream keeps order: once a later camera's event is here, a second copy of the first would be too.
    expect(await saveCamera('Danach')).toEqual({ status: 200, body: 'true' });
    await eventually(async () => delivered.some((event) => event.name === 'Danach'), 'the later event');
    expect(delivered.filter((event) => event.name === 'Absturz')).toHaveLength(1);
  }, 120_000);

  it('leaves svc-imaging’s camera directory as it was when the event is delivered again', async () => {
    const event = delivered.find((e) => e.name === 'Absturz') as Webcam;
    const before = await imagingPartsOf(imaging).cameraDirectory.byName('Absturz');
    expect(before).toMatchObject({ webcamId: event.id, name: 'Absturz', intervalMin: 10 });
    await testBus.publishEvent(CameraUpserted.subject, event);
    // svc-imaging applies camera events in order: the marker after the copy shows the copy was applied.
    await testBus.publishEvent(CameraUpserted.subject, { ...camera('Marke'), id: 999_999 });
    await eventually(imagingKnows('Marke'), 'svc-imaging to apply the copy and the marker');
    expect(await imagingPartsOf(imaging).cameraDirectory.byName('Absturz')).toEqual(before);
    expect(
      (await imagingPartsOf(imaging).cameraDirectory.list()).filter((row) => row.webcamId === event.id),
    ).toHaveLength(1);
  });
});
