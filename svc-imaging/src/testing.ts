import { CameraUpserted, type PayloadOf } from '@lakecams/contracts/messages';
import { createKysely } from '@lakecams/service-kit';
import { buildTestService, type TestServiceOptions } from '@lakecams/service-kit/testing';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imagingService } from './app.ts';
import { compositionOf } from './composition.ts';
import type { CameraRow, Database } from './database.ts';
import type { ImagingOptions } from './options.ts';

/** For tests, this package's own and other packages' (`@lakecams/svc-imaging/testing`): captures driven by hand, health. */
export { type CaptureContext, captureTick } from './capture/capture-tick.ts';
export { renderDemoImage } from './capture/demo-source.ts';
export { pruneImages } from './archive/prune.ts';
export { camerasHealth, offlineReason } from './delivery/camera-health.ts';
export type { CameraRow, Database } from './database.ts';
/** The parts of a built svc-imaging app, as its composition root made them (src/composition.ts). */
export { compositionOf as imagingPartsOf, type ImagingComposition } from './composition.ts';

/** A test's own connection to svc-imaging's database, typed by its tables; the test destroys it. */
export function openImagingDatabase(connectionString: string) {
  return createKysely<Database>({ connectionString });
}

export type BuildImagingServiceOptions = TestServiceOptions<ImagingOptions>;
export type ImagingTestService = Awaited<ReturnType<typeof buildImagingService>>;

/** A camera as svc-webcam announces it; what is left out gets a value that fetches nothing. */
export type TestCamera = Pick<PayloadOf<typeof CameraUpserted>, 'id' | 'name'> &
  Partial<PayloadOf<typeof CameraUpserted>>;

/**
 * svc-imaging for one test, as the kit's `buildTestService` builds a service (its own database and test bus,
 * in-process or NATS with `TEST_BUS=nats`), with its pictures (and zoom tiles, under `.zoom`) in a temporary
 * `storeDir` and no capture schedule unless the options say otherwise. `close()` also removes the folder.
 */
export async function buildImagingService(given: BuildImagingServiceOptions = {}) {
  const storeDir = await mkdtemp(join(tmpdir(), 'lakecams-imaging-'));
  const removeStore = () => rm(storeDir, { recursive: true, force: true });
  const withDefaults = (options?: ImagingOptions): ImagingOptions => ({ storeDir, schedule: false, ...options });
  const service = await buildTestService(
    imagingService,
    { ...given, options: withDefaults(given.options) },
    removeStore,
  ).catch(async (error: unknown) => {
    await removeStore();
    throw error;
  });
  const restart = service.restart;
  return Object.assign(service, {
    storeDir,
    /** Stop the app and start it again on the same bus, database and folder. */
    restart: (options?: ImagingOptions) => restart(withDefaults(options)),
    /** Announce a camera as svc-webcam does, and wait until svc-imaging holds it as announced. */
    async upsertCamera(camera: TestCamera): Promise<CameraRow> {
      const announced = {
        pattern: 'http://127.0.0.1:9/x.jpg',
        intervalMin: 5,
        distance: 5,
        angle: 60,
        webcamType: 'STATIC' as const,
        ...camera,
      };
      await service.bus.publishEvent(CameraUpserted.subject, announced);
      return waitFor(`camera ${camera.id} in svc-imaging`, async () => {
        const row = await compositionOf(service.app).cameraDirectory.byId(camera.id);
        const applied =
          row?.name === announced.name &&
          row.pattern === announced.pattern &&
          row.intervalMin === announced.intervalMin;
        return applied ? row : undefined;
      });
    },
  });
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
