import type { Bus } from '@lakecams/bus';
import { CameraUpserted, type PayloadOf } from '@lakecams/contracts/messages';
import {
  buildServiceApp,
  createKysely,
  createLogger,
  generateSigningKeys,
  type ServiceApp,
  type ServiceRuntime,
  type SigningKeys,
} from '@lakecams/service-kit';
import { createTestBus, createTestDatabase } from '@lakecams/service-kit/testing';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imagingService } from './app.ts';
import type { CameraRow, Database } from './database.ts';
import type { ImagingOptions } from './options.ts';

/** For tests of other packages: drive a capture with a picture of their own (`@lakecams/svc-imaging/testing`). */
export { type CaptureContext, captureTick } from './capture/capture-tick.ts';
export { renderDemoImage } from './capture/demo-source.ts';
export { pruneImages } from './capture/prune.ts';
export { camerasHealth, offlineReason } from './delivery/camera-health.ts';
export type { CameraRow, Database } from './database.ts';

/** A test's own connection to svc-imaging's database, typed by its tables; the test destroys it. */
export function openImagingDatabase(connectionString: string) {
  return createKysely<Database>({ connectionString });
}

export interface ImagingTestOptions {
  /** The bus to run on (e.g. shared with other services); its creator closes it. Default: the test bus. */
  bus?: Bus;
  /** The key pair access tokens are signed with; the service gets the public key. Default: a new pair. */
  keys?: SigningKeys;
  /** Default: silent. */
  logger?: ServiceRuntime['logger'];
  /** Over the defaults: pictures in a temporary folder, no capture schedule. */
  options?: ImagingOptions;
}

/** A camera as svc-webcam announces it; what is left out gets a value that fetches nothing. */
export type TestCamera = Pick<PayloadOf<typeof CameraUpserted>, 'id' | 'name'> &
  Partial<PayloadOf<typeof CameraUpserted>>;

export interface ImagingTestService {
  app: ServiceApp;
  /** The bus the service runs on: the test bus (in-process, or NATS with `TEST_BUS=nats`) unless one was given. */
  bus: Bus;
  keys: SigningKeys;
  database: { url: string; prefix: string };
  /** The test's own typed connection to the service's database. */
  db: ReturnType<typeof openImagingDatabase>;
  /** The temporary folder of the pictures (and of the zoom tiles, under `.zoom`), removed by `close()`. */
  storeDir: string;
  /** Announce a camera as svc-webcam does, and wait until svc-imaging holds it as announced. */
  upsertCamera(camera: TestCamera): Promise<CameraRow>;
  /** Close the service, the connection and the bus it made, drop the database, remove the folder. */
  close(): Promise<void>;
}

/**
 * svc-imaging as its integration tests run it (one helper for all of them, as `build(t)` in fastify/demo): a
 * database of its own, the test bus or the given one, a silent logger, a key pair, a temporary picture folder.
 */
export async function buildImagingService(options: ImagingTestOptions = {}): Promise<ImagingTestService> {
  const cleanups: (() => Promise<unknown>)[] = [];
  const close = async () => {
    const errors: unknown[] = [];
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((error) => errors.push(error));
    if (errors.length) throw new AggregateError(errors, 'closing svc-imaging of a test failed');
  };
  try {
    const database = await createTestDatabase('imaging');
    cleanups.push(() => database.drop());
    const storeDir = await mkdtemp(join(tmpdir(), 'lakecams-imaging-'));
    cleanups.push(() => rm(storeDir, { recursive: true, force: true }));
    let bus = options.bus;
    if (!bus) {
      const testBus = await createTestBus();
      cleanups.push(() => testBus.close());
      bus = testBus.bus;
    }
    const db = openImagingDatabase(database.url);
    cleanups.push(() => db.destroy());
    const keys = options.keys ?? generateSigningKeys();
    const app = await buildServiceApp(imagingService, {
      bus,
      logger: options.logger ?? createLogger('silent'),
      databaseUrl: database.url,
      jwtPublicKey: keys.publicKey,
      options: { storeDir, schedule: false, ...options.options },
    });
    cleanups.push(() => app.close());
    const published = bus;
    return {
      app,
      bus,
      keys,
      database: { url: database.url, prefix: database.prefix },
      db,
      storeDir,
      upsertCamera: async (camera) => {
        const announced = {
          pattern: 'http://127.0.0.1:9/x.jpg',
          intervalMin: 5,
          distance: 5,
          angle: 60,
          webcamType: 'STATIC' as const,
          ...camera,
        };
        await published.publishEvent(CameraUpserted.subject, announced);
        return waitFor(`camera ${camera.id} in svc-imaging`, async () => {
          const row = await app.cameraDirectory.byId(camera.id);
          const applied =
            row?.name === announced.name &&
            row.pattern === announced.pattern &&
            row.intervalMin === announced.intervalMin;
          return applied ? row : undefined;
        });
      },
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

/** The first value `check` gives within 30 s, asked every 20 ms (a busy machine may take seconds). */
async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
