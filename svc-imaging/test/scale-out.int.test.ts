import { CameraUpserted } from '@lakecams/contracts/messages';
import { type Bus, createNatsBus } from '@lakecams/bus';
import { createTestDatabase, freePort, removeNatsNamespace, TEST_NATS_URL } from '@lakecams/service-kit/testing';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openImagingDatabase } from '../src/testing.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CAMERAS = [1, 2, 3];
/** The replicas' capture clock runs this much faster (CAPTURE_CLOCK_SCALE): a camera minute in 3 s. */
const CLOCK_SCALE = 20;

/** Waits for the first moment `condition` holds, checking every 100 ms. */
async function eventually<T>(
  condition: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function within<T>(promise: Promise<T>, what: string, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// On NATS only (the replicas are processes of their own): the `integration` project leaves this file out.
describe('two svc-imaging replicas on NATS: each tick captured once, even when a replica dies mid-capture', () => {
  const namespace = `scale_${randomBytes(4).toString('hex')}`;
  /** Requests per `camera@tick`: the camera URLs name their tick, as the replicas' scaled clock has it. */
  const fetches = new Map<string, number>();
  /** The tick after the first one every camera was asked for: camera 1's first request of it is never answered. */
  let slowTick: string | undefined;
  let slowRequested: () => void = () => {};
  const slowRequest = new Promise<void>((resolve) => {
    slowRequested = resolve;
  });
  const replicas = new Map<string, ChildProcess>();
  const ports = new Map<string, number>();
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let storeDir: string;
  let camera: Server;
  let bus: Bus;
  let db: ReturnType<typeof openImagingDatabase>;

  async function startReplica(id: string, port: number, anchor: number) {
    const child = spawn(process.execPath, ['svc-imaging/src/server.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL_IMAGING: database.url,
        NATS_URL: TEST_NATS_URL,
        BUS_NAMESPACE: namespace,
        // Pictures in the JetStream object store: each replica serves what the other captured.
        IMAGE_STORE: 'nats',
        IMAGE_STORE_DIR: storeDir,
        REPLICA_ID: id,
        DEMO_SOURCE: 'false',
        // Camera minutes in seconds, the same on both replicas; heartbeats and the takeover stay in real seconds.
        CAPTURE_CLOCK_SCALE: String(CLOCK_SCALE),
        CAPTURE_CLOCK_ANCHOR: String(anchor),
        CAPTURE_TAKEOVER_SECONDS: '3',
        LOG_LEVEL: 'warn',
      },
      stdio: 'ignore',
    });
    replicas.set(id, child);
    ports.set(id, port);
    await eventually(
      async () => (await fetch(`http://127.0.0.1:${port}/ready`).catch(() => null))?.ok,
      `${id} ready`,
      45_000,
    );
  }

  beforeAll(async () => {
    database = await createTestDatabase('imaging');
    storeDir = await mkdtemp(join(tmpdir(), 'lakecams-scale-'));
    const picture = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer();
    camera = createServer((request, response) => {
      const [, id, tick] = /^\/cam(\d+)\/(\d{12})\.jpg$/.exec(request.url ?? '') ?? [];
      if (!id || !tick) {
        response.writeHead(404).end();
        return;
      }
      const key = `${id}@${tick}`;
      const count = (fetches.get(key) ?? 0) + 1;
      fetches.set(key, count);
      if (!slowTick && CAMERAS.every((c) => fetches.has(`${c}@${tick}`))) slowTick = nextMinuteAfter(tick);
      if (id === '1' && tick === slowTick && count === 1) {
        // Left hanging: the test kills the replica capturing it in the middle of this capture.
        slowRequested();
        return;
      }
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      response.end(picture);
    });
    await new Promise<void>((resolve) => camera.listen(0, '127.0.0.1', resolve));
    const cameraUrl = `http://127.0.0.1:${(camera.address() as { port: number }).port}`;
    const anchor = Date.now();
    const [portA, portB] = [await freePort(), await freePort()];
    // Started together, as replicas of a deployment are: migrations and streams are set up once between them.
    await Promise.all([startReplica('replica-a', portA, anchor), startReplica('replica-b', portB, anchor)]);
    bus = await createNatsBus({ servers: TEST_NATS_URL, name: 'scale-out-test', namespace });
    for (const id of CAMERAS) {
      await bus.publishEvent(CameraUpserted.subject, {
        id,
        name: `Kamera-${id}`,
        // The tick in the URL: the camera learns which (scaled) minute each request is for.
        pattern: `${cameraUrl}/cam${id}/{yyyy}{MM}{dd}{HH}{mm}.jpg`,
        intervalMin: 1,
        distance: 5,
        angle: 60,
        webcamType: 'STATIC',
      });
    }
    db = openImagingDatabase(database.url);
  }, 90_000);

  afterAll(async () => {
    // A killed process has a signalCode and no exitCode; either means it is gone.
    const running = [...replicas.values()].filter((child) => child.exitCode === null && child.signalCode === null);
    await Promise.all(
      running.map((child) => {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        return exited;
      }),
    );
    await bus?.close();
    await db?.destroy();
    camera?.closeAllConnections();
    await new Promise((resolve) => camera?.close(resolve));
    await removeNatsNamespace(namespace, [`OBJ_lakecams_images_${namespace}`]);
    await database?.drop();
    await rm(storeDir, { recursive: true, force: true });
  });

  const capturesOf = (tick: string) =>
    db
      .selectFrom('captures')
      .select(['webcamId', 'status', 'claimedBy', 'attempt'])
      .where('name', '=', tick)
      .orderBy('webcamId')
      .execute();

  /** The first tick after `after` with every camera's capture done. */
  const firstCompleteTick = (after: string) =>
    eventually(
      async () => {
        const ticks = await db
          .selectFrom('captures')
          .select('name')
          .where('name', '>', after)
          .where('status', '=', 'done')
          .groupBy('name')
          .having((eb) => eb.fn.countAll(), '=', CAMERAS.length)
          .orderBy('name')
          .execute();
        return ticks[0]?.name;
      },
      `a tick after ${after} with every camera captured`,
      30_000,
    );

  it('captures every camera exactly once per tick; a capture interrupted by a kill is finished by the other replica', async () => {
    // First tick with both replicas up.
    const first = await firstCompleteTick('');
    const firstRows = await capturesOf(first);
    expect(firstRows.map((r) => [r.webcamId, r.status])).toEqual(CAMERAS.map((id) => [id, 'done']));
    for (const id of CAMERAS) expect(fetches.get(`${id}@${first}`), `camera ${id} fetched once`).toBe(1);
    // Every replica serves every picture, whichever captured it: one names it, the other sends it.
    for (const row of firstRows) {
      const other = row.claimedBy === 'replica-a' ? 'replica-b' : 'replica-a';
      const entitlement = await fetch(
        `http://127.0.0.1:${ports.get(row.claimedBy)}/api/Image/Get/camera/Kamera-${row.webcamId}/${first}.jpg`,
        { redirect: 'manual' },
      );
      expect(entitlement.status, `${row.claimedBy} names camera ${row.webcamId}'s picture`).toBe(302);
      const name = String(entitlement.headers.get('location'));
      const picture = await fetch(`http://127.0.0.1:${ports.get(other)}${name}`);
      expect([picture.status, picture.headers.get('content-type')], `${other} serves ${name}`).toEqual([
        200,
        'image/jpeg',
      ]);
      await picture.arrayBuffer();
    }

    // The next tick: camera 1's picture does not come, and the replica capturing it is killed meanwhile.
    const second = nextMinuteAfter(first);
    expect(slowTick).toBe(second);
    await within(slowRequest, 'camera 1 asked for at the slow tick', 30_000);
    const interrupted = (await capturesOf(second)).find((row) => row.webcamId === 1);
    expect(interrupted).toMatchObject({ status: 'running', attempt: 1 });
    const running = String(interrupted?.claimedBy);
    const survivor = running === 'replica-a' ? 'replica-b' : 'replica-a';
    const killed = replicas.get(running);
    const exited = new Promise((resolve) => killed?.once('exit', resolve));
    killed?.kill('SIGKILL');
    await exited;
    const takenOver = await eventually(
      async () => {
        const rows = await capturesOf(second);
        return rows.length === CAMERAS.length && rows.every((r) => r.status === 'done') ? rows : undefined;
      },
      'the interrupted tick completed by the other replica',
      30_000,
    );
    // One row per camera and tick, so never a second image of a tick; camera 1's finished by the survivor.
    expect(takenOver.find((r) => r.webcamId === 1)).toMatchObject({ claimedBy: survivor, attempt: 2 });
    expect(fetches.get(`1@${second}`), 'camera 1 asked again by the survivor').toBe(2);

    // The tick after: every camera captured once, by the survivor alone; no tick missed around the kill.
    const next = await firstCompleteTick(second);
    expect(next).toBe(nextMinuteAfter(second));
    const nextRows = await capturesOf(next);
    expect(nextRows.map((r) => [r.webcamId, r.status, r.claimedBy, r.attempt])).toEqual(
      CAMERAS.map((id) => [id, 'done', survivor, 1]),
    );
    for (const id of CAMERAS) expect(fetches.get(`${id}@${next}`)).toBe(1);
    // No other tick was ever fetched twice.
    const twice = [...fetches].filter(([key, count]) => count > 1 && !key.endsWith(`@${second}`));
    expect(twice).toEqual([]);
  }, 60_000);
});

/** Tick names `yyyyMMddHHmm` are local time; reading them as UTC keeps differences and steps right. */
const tickTime = (n: string) =>
  Date.UTC(+n.slice(0, 4), +n.slice(4, 6) - 1, +n.slice(6, 8), +n.slice(8, 10), +n.slice(10, 12));
function nextMinuteAfter(name: string): string {
  return new Date(tickTime(name) + 60_000).toISOString().replace(/[-T:]/g, '').slice(0, 12);
}
