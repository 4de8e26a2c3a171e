import type { FastifyInstance } from 'fastify';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CaptureContext,
  captureMetrics,
  captureTick,
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_TAKEOVER_AFTER_MS,
  takeOverStaleCaptures,
} from './capture-tick.ts';
import type { CameraRow } from '../database.ts';
import type { BestOfChoiceRepository } from '../repositories/best-of-choice-repository.ts';
import type { CameraChange, CameraDirectory } from '../repositories/camera-directory-repository.ts';
import type { CameraSources } from '../repositories/camera-source-repository.ts';
import type { CaptureClaimRepository } from '../repositories/capture-claim-repository.ts';
import type { CaptureHistoryRepository } from '../repositories/capture-history-repository.ts';
import type { CaptureQueryRepository } from '../repositories/capture-query-repository.ts';
import type { JobRunRepository } from '../repositories/job-run-repository.ts';
import { createZoomTiles } from '../archive/zoom-tiles.ts';
import { DEFAULT_FETCH_LIMITS } from './camera-fetch.ts';
import { isPulled, pictureSource } from './picture-source.ts';
import { isDemoSourceUrl, renderDemoImage } from './demo-source.ts';
import { createImageStore, type ImageStore } from '../store/image-store.ts';
import type { ImagingOptions } from '../options.ts';
import { type CaptureScheduler, createCaptureScheduler } from './scheduler.ts';

/** The capture side of svc-imaging, built once by the composition (src/composition.ts). */
export interface CapturePipeline {
  /** What a capture needs: handed to `captureTick`, pruning, the upload routes and the FTP ingest. */
  context: CaptureContext;
  scheduler: CaptureScheduler;
  /** Where the pictures (and time-lapse clips) are kept. */
  store: ImageStore;
  /** A replica applied a camera change (heard on the bus): reschedule it, or drop its files when deleted. */
  cameraChanged(change: CameraChange): Promise<void>;
}

/** What the pipeline reads and writes, and whom it tells that a camera's pictures changed. */
export interface CapturePipelineParts {
  cameraDirectory: CameraDirectory;
  cameraSources: CameraSources;
  claims: CaptureClaimRepository;
  captures: CaptureQueryRepository;
  history: CaptureHistoryRepository;
  jobRuns: JobRunRepository;
  bestOfChoices: BestOfChoiceRepository;
  /** A capture or a prune changed a camera's pictures: drop what is held of it (this replica and the others). */
  refreshed(webcamId: number): Promise<void>;
}

/**
 * Capture schedules per camera, following camera changes; demo cameras get a first history at once; the
 * schedules' resync and the takeover of stale claims. Timers start with the app and stop
 * when it closes.
 */
export function createCapturePipeline(
  app: FastifyInstance,
  options: ImagingOptions,
  {
    cameraDirectory,
    cameraSources,
    claims,
    captures,
    history,
    jobRuns,
    bestOfChoices,
    refreshed,
  }: CapturePipelineParts,
): CapturePipeline {
  if (!options.imageStore && !options.storeDir) throw new Error('svc-imaging needs an image store or a folder');
  const store = options.imageStore ?? createImageStore(options.storeDir as string);
  app.log.info({ store: store.description }, 'pictures are kept in');
  const fetchLimits = options.fetchLimits ?? DEFAULT_FETCH_LIMITS;
  // Demo cameras are rendered here, not fetched: no route serves their pictures (decisions.md, "Demo cameras").
  const isDemo = (camera: CameraRow) => options.demoSource === true && isDemoSourceUrl(camera.pattern);
  const fetchBySource = pictureSource(cameraSources);
  const context: CaptureContext = {
    claims,
    captures,
    history,
    jobRuns,
    bestOfChoices,
    store,
    refreshed,
    log: app.log,
    replicaId: options.replicaId ?? `${hostname()}:${process.pid}`,
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    zoomTiles: createZoomTiles(
      options.zoomTilesDir ?? (options.storeDir ? join(options.storeDir, '.zoom') : join(tmpdir(), 'lakecams-zoom')),
    ),
    limits: fetchLimits,
    source: (camera, at, limits) =>
      isDemo(camera) ? renderDemoImage(camera.name, at) : fetchBySource(camera, at, limits),
    metrics: captureMetrics(app.metrics),
    ...(options.clock ? { clock: options.clock } : {}),
  };
  const scale = options.clockScale ?? 1;
  if (scale !== 1 && !options.clock) throw new Error('clockScale needs the clock it scales');
  if (scale !== 1) app.log.warn({ scale }, 'the capture clock runs faster than real time (for tests only)');
  const scheduler = createCaptureScheduler(
    async (webcamId, tick) => {
      const camera = await cameraDirectory.byId(webcamId);
      // A camera paused on the job dashboard skips its scheduled ticks; one that pushes its pictures has none.
      if (camera && !camera.paused && (isDemo(camera) || (await isPulled(cameraSources, webcamId))))
        await captureTick(context, camera, tick);
    },
    options.clock && scale !== 1 ? { clock: options.clock, scale } : undefined,
  );

  let closing = false;
  const backfills = new Set<Promise<unknown>>();

  async function backfillDemoCamera(camera: CameraRow) {
    // 0 minutes still renders the current picture, so a demo camera never starts empty.
    const minutes = options.demoBackfillMinutes ?? 60;
    if (!isDemo(camera)) return;
    if (await captures.hasAny(camera.webcamId)) return;
    const step = camera.intervalMin * 60_000;
    const last = Math.floor(Date.now() / step) * step;
    // Newest first: the current picture is there within a second, the history fills in behind it.
    for (let at = last; at >= last - minutes * 60_000 && !closing; at -= step) {
      await captureTick(context, camera, new Date(at));
    }
  }

  // In the background: the directory keeps following changes meanwhile; closing waits for it.
  const backfilling = new Set<number>();
  function startBackfill(camera: CameraRow) {
    if (backfilling.has(camera.webcamId)) return;
    backfilling.add(camera.webcamId);
    const backfill = backfillDemoCamera(camera)
      .catch((err) => app.log.warn({ err, camera: camera.name }, 'demo backfill failed'))
      .finally(() => {
        backfills.delete(backfill);
        backfilling.delete(camera.webcamId);
      });
    backfills.add(backfill);
  }

  async function cameraChanged({ camera, deleted }: CameraChange) {
    if (deleted) {
      scheduler.unschedule(camera.webcamId);
      await store.removeCamera(camera.name);
      await context.zoomTiles?.removeCamera(camera.name);
      return;
    }
    if (options.schedule) scheduler.schedule(camera);
    startBackfill(camera);
  }

  // The schedules follow the directory; a periodic pass also catches a change this replica missed.
  const resync = async () => {
    const cameras = await cameraDirectory.list();
    const known = new Set(cameras.map((camera) => camera.webcamId));
    for (const camera of cameras) {
      scheduler.schedule(camera);
      // Cameras applied while this replica was still starting reached no listener: catch them up here.
      startBackfill(camera);
    }
    for (const webcamId of scheduler.scheduledIds()) if (!known.has(webcamId)) scheduler.unschedule(webcamId);
  };
  const resyncTimer = options.schedule
    ? setInterval(() => resync().catch((err) => app.log.warn({ err }, 'schedule resync failed')), 60_000)
    : null;
  resyncTimer?.unref();
  // A replica that died mid-capture leaves a claim without heartbeat; one of the others finishes that tick.
  const takeoverAfterMs = options.takeoverAfterMs ?? DEFAULT_TAKEOVER_AFTER_MS;
  let takingOver = false;
  const takeoverTimer = options.schedule
    ? setInterval(
        () => {
          if (takingOver || closing) return;
          takingOver = true;
          takeOverStaleCaptures(context, (id) => cameraDirectory.byId(id), takeoverAfterMs)
            .catch((err) => app.log.warn({ err }, 'taking over stale captures failed'))
            .finally(() => {
              takingOver = false;
            });
        },
        Math.max(1000, Math.floor(takeoverAfterMs / 4)),
      )
    : null;
  takeoverTimer?.unref();
  app.addHook('onReady', async () => {
    if (options.schedule) await resync();
  });
  app.addHook('onClose', async () => {
    closing = true;
    if (resyncTimer) clearInterval(resyncTimer);
    if (takeoverTimer) clearInterval(takeoverTimer);
    scheduler.stop();
    await Promise.all(backfills);
    await store.close();
  });
  return { context, scheduler, store, cameraChanged };
}
