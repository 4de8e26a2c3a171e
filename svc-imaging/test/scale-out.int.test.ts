import { type Bus, createNatsBus } from '@lakecams/bus';
import { imageNameOf, SUBJECTS } from '@lakecams/contracts';
import { createKysely } from '@lakecams/service-kit';
import { createTestDatabase, TEST_NATS_URL } from '@lakecams/service-kit/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/database.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CAMERAS = [1, 2, 3];

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

describe('two svc-imaging replicas on NATS: each tick captured once, and once more after one replica dies', () => {
  const namespace = `scale_${randomBytes(4).toString('hex')}`;
  const fetches = new Map<string, number>();
  const replicas = new Map<string, ChildProcess>();
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let storeDir: string;
  let camera: Server;
  let bus: Bus;
  let db: ReturnType<typeof createKysely<Database>>;

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
        IMAGE_STORE_DIR: storeDir,
        REPLICA_ID: id,
        DEMO_SOURCE: 'false',
        LOG_LEVEL: 'warn',
      },
      stdio: 'ignore',
    });
    replicas.set(id, child);
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
      const key = `${request.url}@${imageNameOf(new Date())}`;
      fetches.set(key, (fetches.get(key) ?? 0) + 1);
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      response.end(picture);
    });
    await new Promise<void>((resolve) => camera.listen(0, '127.0.0.1', resolve));
    const cameraUrl = `http://127.0.0.1:${(camera.address() as { port: number }).port}`;
    await startReplica('replica-a', 20_000 + Math.floor(Math.random() * 10_000));
    await startReplica('replica-b', 30_000 + Math.floor(Math.random() * 10_000));
    bus = await createNatsBus({ servers: TEST_NATS_URL, name: 'scale-out-test', namespace });
    for (const id of CAMERAS) {
      await bus.publishEvent(SUBJECTS.cameraUpserted, {
        id,
        name: `Kamera-${id}`,
        pattern: `${cameraUrl}/cam${id}.jpg`,
        intervalMin: 1,
        distance: 5,
        angle: 60,
        webcamType: 'STATIC',
      });
    }
    db = createKysely<Database>({ connectionString: database.url });
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
    const nc = await connect({ servers: TEST_NATS_URL });
    await (await jetstreamManager(nc)).streams.delete(`LAKECAMS_${namespace}`).catch(() => false);
    await nc.close();
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

  it('captures every camera exactly once per tick, keeps going when a replica is killed', async () => {
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

    // Kill one replica without warning; the other carries on at the next tick.
    replicas.get('replica-a')?.kill('SIGKILL');
    const next = await eventually(
      async () => {
        const rows = await db
          .selectFrom('captures')
          .select(['name'])
          .where('name', '>', first)
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
      CAMERAS.map((id) => [id, 'done', 'replica-b']),
    );
    for (const id of CAMERAS) expect(fetches.get(`/cam${id}.jpg@${next}`)).toBe(1);
    // No camera missed more than one tick around the kill.
    expect(minutesBetween(first, next)).toBeLessThanOrEqual(2);
  }, 180_000);
});

/** Minutes between two tick names `yyyyMMddHHmm`; both are local time, so reading them as UTC keeps the difference. */
function minutesBetween(a: string, b: string): number {
  const at = (n: string) =>
    Date.UTC(+n.slice(0, 4), +n.slice(4, 6) - 1, +n.slice(6, 8), +n.slice(8, 10), +n.slice(10, 12));
  return (at(b) - at(a)) / 60_000;
}
