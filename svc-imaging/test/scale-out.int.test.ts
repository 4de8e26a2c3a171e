import { CameraUpserted } from '@lakecams/contracts/messages';
import { type Bus, createNatsBus } from '@lakecams/bus';
import { imageNameOf } from '@lakecams/contracts';
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
const SLOW_CAMERA_PATH = '/cam1.jpg';

/** Waits for the first moment `condition` holds, checking every 250 ms. */
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
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('two svc-imaging replicas on NATS: each tick captured once, even when a replica dies mid-capture', () => {
  const namespace = `scale_${randomBytes(4).toString('hex')}`;
  const fetches = new Map<string, number>();
  const slowTicks = new Set<string>();
  const replicas = new Map<string, ChildProcess>();
  const ports = new Map<string, number>();
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let storeDir: string;
  let camera: Server;
  let bus: Bus;
  let db: ReturnType<typeof openImagingDatabase>;

  async function startReplica(id: string, port: number) {
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
      30_000,
    );
  }

  beforeAll(async () => {
    database = await createTestDatabase('imaging');
    storeDir = await mkdtemp(join(tmpdir(), 'lakecams-scale-'));
    const picture = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer();
    camera = createServer((request, response) => {
      const tick = imageNameOf(new Date());
      const key = `${request.url}@${tick}`;
      fetches.set(key, (fetches.get(key) ?? 0) + 1);
      // A slow camera keeps its capture running long enough to kill the replica in the middle of it.
      const delay = request.url === SLOW_CAMERA_PATH && slowTicks.has(tick) ? 6_000 : 0;
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'image/jpeg' });
        response.end(picture);
      }, delay);
    });
    await new Promise<void>((resolve) => camera.listen(0, '127.0.0.1', resolve));
    const cameraUrl = `http://127.0.0.1:${(camera.address() as { port: number }).port}`;
    await startReplica('replica-a', await freePort());
    await startReplica('replica-b', await freePort());
    bus = await createNatsBus({ servers: TEST_NATS_URL, name: 'scale-out-test', namespace });
    for (const id of CAMERAS) {
      await bus.publishEvent(CameraUpserted.subject, {
        id,
        name: `Kamera-${id}`,
        pattern: `${cameraUrl}/cam${id}.jpg`,
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
    await new Promise((resolve) => camera?.close(resolve));
    await removeNatsNamespace(namespace, [`OBJ_lakecams_images_${namespace}`]);
    await database?.drop();
    await rm(storeDir, { recursive: true, force: true });
  });

  const capturesOf = (tick: string) =>
    db
      .selectFrom('captures')
      .select(['webcamId', 'status', 'claimedBy'])
      .where('name', '=', tick)
      .orderBy('webcamId')
      .execute();

  it('captures every camera exactly once per tick; a capture interrupted by a kill is finished by the other replica', async () => {
    // First tick with both replicas up.
    const first = await eventually(
      async () => {
        const ticks = await db
          .selectFrom('captures')
          .select('name')
          .where('status', '=', 'done')
          .groupBy('name')
          .having((eb) => eb.fn.countAll(), '=', CAMERAS.length)
          .orderBy('name')
          .execute();
        return ticks[0]?.name;
      },
      'a tick with every camera captured',
      75_000,
    );
    const firstRows = await capturesOf(first);
    expect(firstRows.map((r) => [r.webcamId, r.status])).toEqual(CAMERAS.map((id) => [id, 'done']));
    for (const id of CAMERAS) expect(fetches.get(`/cam${id}.jpg@${first}`), `camera ${id} fetched once`).toBe(1);
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

    // The next tick: camera 1 is slow, and the replica capturing it is killed in the middle.
    const second = nextMinuteAfter(first);
    slowTicks.add(second);
    const running = await eventually(
      async () => (await capturesOf(second)).find((row) => row.webcamId === 1 && row.status === 'running')?.claimedBy,
      'camera 1 being captured at the slow tick',
      75_000,
    );
    const survivor = running === 'replica-a' ? 'replica-b' : 'replica-a';
    replicas.get(running)?.kill('SIGKILL');
    const takenOver = await eventually(
      async () => {
        const rows = await db
          .selectFrom('captures')
          .select(['webcamId', 'status', 'claimedBy', 'attempt'])
          .where('name', '=', second)
          .orderBy('webcamId')
          .execute();
        return rows.length === CAMERAS.length && rows.every((r) => r.status === 'done') ? rows : undefined;
      },
      'the interrupted tick completed by the other replica',
      40_000,
    );
    // One row per camera and tick, so never a second image of a tick; camera 1's finished by the survivor.
    expect(takenOver.find((r) => r.webcamId === 1)).toMatchObject({ claimedBy: survivor, attempt: 2 });

    // The tick after: every camera captured once, by the survivor alone.
    const next = await eventually(
      async () => {
        const rows = await db
          .selectFrom('captures')
          .select(['name'])
          .where('name', '>', second)
          .where('status', '=', 'done')
          .groupBy('name')
          .having((eb) => eb.fn.countAll(), '=', CAMERAS.length)
          .orderBy('name')
          .execute();
        return rows[0]?.name;
      },
      'the next tick captured after the kill',
      80_000,
    );
    const nextRows = await capturesOf(next);
    expect(nextRows.map((r) => [r.webcamId, r.status, r.claimedBy])).toEqual(
      CAMERAS.map((id) => [id, 'done', survivor]),
    );
    for (const id of CAMERAS) expect(fetches.get(`/cam${id}.jpg@${next}`)).toBe(1);
    // No camera missed a tick around the kill.
    expect(minutesBetween(first, second)).toBe(1);
    expect(minutesBetween(second, next)).toBeLessThanOrEqual(2);
  }, 240_000);
});

/** Tick names `yyyyMMddHHmm` are local time; reading them as UTC keeps differences and steps right. */
const tickTime = (n: string) =>
  Date.UTC(+n.slice(0, 4), +n.slice(4, 6) - 1, +n.slice(6, 8), +n.slice(8, 10), +n.slice(10, 12));
function minutesBetween(a: string, b: string): number {
  return (tickTime(b) - tickTime(a)) / 60_000;
}
function nextMinuteAfter(name: string): string {
  return new Date(tickTime(name) + 60_000).toISOString().replace(/[-T:]/g, '').slice(0, 12);
}
