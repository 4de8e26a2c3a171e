import type { ServiceBus } from '@lakecams/bus';
import { type CapturedImage, type Image, imageNameOf, SUBJECTS } from '@lakecams/contracts';
import { Counter, Histogram, publishEvent, type Registry } from '@lakecams/service-kit';
import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { DEFAULT_FETCH_LIMITS, type FetchLimits, fetchCameraImage } from './camera-fetch.ts';
import type { CameraRow, Database } from './database.ts';
import type { ZoomTiles } from './delivery/zoom-tiles.ts';
import { previousCapture } from './capture/previous-capture.ts';
import { scorePicture } from './capture/score.ts';
import { deriveQualityVariants } from './derive-variants.ts';
import type { ImageStore } from './image-store.ts';
import { CAMERA_REFRESHED } from './plugins/app/delivery-state.ts';

export type CaptureOutcome =
  | { outcome: 'captured'; image: Image }
  | { outcome: 'skipped' }
  | { outcome: 'failed'; error: string };

export interface CaptureContext {
  db: Kysely<Database>;
  store: ImageStore;
  bus: ServiceBus;
  log: FastifyBaseLogger;
  /** Which replica claims a tick (shown on the job dashboard). */
  replicaId: string;
  limits?: FetchLimits;
  /** How often a running capture renews its claim (default 5 s). */
  heartbeatMs?: number;
  /** Where the picture comes from; the camera URL by default. */
  source?: (camera: CameraRow, at: Date) => Promise<Buffer>;
  /** Deep-zoom tiles made from the pictures, pruned with them. */
  zoomTiles?: ZoomTiles;
  metrics?: CaptureMetrics;
}

/** Told of every capture this replica finished, recorded or failed; a tick another replica took over is not. */
export interface CaptureMetrics {
  finished(outcome: 'ok' | 'failed', seconds: number): void;
}

/** `lakecams_captures_total{outcome}` and `lakecams_capture_duration_seconds{outcome}` on the app's registry. */
export function captureMetrics(registry: Registry): CaptureMetrics {
  const total = new Counter({
    name: 'lakecams_captures_total',
    help: 'Captures finished by this replica (scheduled, backfilled, retried or uploaded), by outcome ok or failed',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'lakecams_capture_duration_seconds',
    help: 'Time from claim to recorded result of a capture: fetch, quality levels, store, score',
    labelNames: ['outcome'],
    // Fetches may take up to 15 s per attempt, with two retries.
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 45, 90],
    registers: [registry],
  });
  for (const outcome of ['ok', 'failed']) {
    total.inc({ outcome }, 0);
    duration.zero({ outcome });
  }
  return {
    finished(outcome, seconds) {
      total.inc({ outcome });
      duration.observe({ outcome }, seconds);
    },
  };
}

export function imageOf(camera: Pick<CameraRow, 'webcamId' | 'lat' | 'lng' | 'direction'>, name: string): Image {
  // Like the position dialog, an unset position is 0, 0, 0 (the map leaves such cameras out).
  return {
    webcamId: camera.webcamId,
    name,
    lat: camera.lat ?? 0,
    lng: camera.lng ?? 0,
    direction: camera.direction ?? 0,
  };
}

/** Tell svc-webcam about a stored image, with its row; it tells open pages once its list shows it. */
export async function announceImage(trx: Transaction<Database>, image: CapturedImage): Promise<void> {
  await publishEvent(trx, SUBJECTS.imageCaptured, image);
}

/**
 * Capture one camera for one tick. Inserting the tick's row is the claim: however many replicas run,
 * only the one whose insert succeeds captures it.
 */
export async function captureTick(
  context: CaptureContext,
  camera: CameraRow,
  tick: Date,
  attempt = 1,
  uploaded?: Buffer,
): Promise<CaptureOutcome> {
  const name = imageNameOf(tick);
  const now = new Date();
  const row = { status: 'running', attempt, claimedBy: context.replicaId, startedAt: now, heartbeatAt: now } as const;
  const claimed = await context.db
    .insertInto('captures')
    .values({ webcamId: camera.webcamId, name, ...row })
    .onConflict((oc) =>
      // An upload by hand takes the minute over, unless a capture of it is still running.
      uploaded
        ? oc
            .columns(['webcamId', 'name'])
            .doUpdateSet({ ...row, error: null })
            .where('captures.status', '!=', 'running')
        : oc.columns(['webcamId', 'name']).doNothing(),
    )
    .executeTakeFirst();
  if (!claimed.numInsertedOrUpdatedRows) return { outcome: 'skipped' };
  return runClaimedCapture(context, camera, tick, uploaded);
}

/** Defaults for a claim's heartbeat, and how old a heartbeat may get before another replica takes over. */
export const DEFAULT_HEARTBEAT_MS = 5_000;
export const DEFAULT_TAKEOVER_AFTER_MS = 20_000;

/**
 * Claims of replicas that died mid-capture (their heartbeat stopped): this replica takes each over, once,
 * and captures that tick itself. The conditional update lets only one replica win a claim.
 */
export async function takeOverStaleCaptures(
  context: CaptureContext,
  cameraById: (webcamId: number) => Promise<CameraRow | undefined>,
  staleAfterMs = DEFAULT_TAKEOVER_AFTER_MS,
): Promise<CaptureOutcome[]> {
  const taken = await context.db
    .updateTable('captures')
    .set((eb) => ({ claimedBy: context.replicaId, attempt: eb('attempt', '+', 1), heartbeatAt: new Date() }))
    .where('status', '=', 'running')
    .where('heartbeatAt', '<', new Date(Date.now() - staleAfterMs))
    .returning(['webcamId', 'name', 'startedAt'])
    .execute();
  const outcomes: CaptureOutcome[] = [];
  for (const claim of taken) {
    const camera = await cameraById(claim.webcamId);
    const tick = new Date(claim.startedAt);
    tick.setSeconds(0, 0);
    if (camera && imageNameOf(tick) === claim.name) {
      context.log.warn({ camera: camera.name, tick: claim.name }, 'taking over a capture whose replica stopped');
      outcomes.push(await runClaimedCapture(context, camera, tick));
    } else {
      await context.db
        .updateTable('captures')
        .set({ status: 'failed', error: 'Abandoned by a stopped replica' })
        .where('webcamId', '=', claim.webcamId)
        .where('name', '=', claim.name)
        .execute();
    }
  }
  return outcomes;
}

async function runClaimedCapture(
  context: CaptureContext,
  camera: CameraRow,
  tick: Date,
  uploaded?: Buffer,
): Promise<CaptureOutcome> {
  const name = imageNameOf(tick);
  const mine = (db: Kysely<Database> = context.db) =>
    db
      .updateTable('captures')
      .where('webcamId', '=', camera.webcamId)
      .where('name', '=', name)
      .where('claimedBy', '=', context.replicaId);
  // While this runs, the heartbeat tells the other replicas this claim is alive.
  const heartbeat = setInterval(() => {
    mine()
      .set({ heartbeatAt: new Date() })
      .where('status', '=', 'running')
      .execute()
      // A missed beat is retried at the next one; a takeover needs several in a row.
      .catch((err) => context.log.warn({ err, camera: camera.name }, 'capture heartbeat failed'));
  }, context.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
  heartbeat.unref();
  const started = performance.now();
  try {
    const source =
      context.source ?? ((c, at) => fetchCameraImage(c.pattern, at, context.limits ?? DEFAULT_FETCH_LIMITS));
    const input = uploaded ?? (await source(camera, tick));
    const { width, height, variants, modern } = await deriveQualityVariants(input);
    await context.store.save(camera.name, name, variants, modern);
    const image = imageOf(camera, name);
    const contentHash = createHash('sha256').update(input).digest('hex');
    // Measured on the smallest level: the same judgement as on the full picture, at a fraction of the cost.
    const previous = await previousCapture(context.db, camera.webcamId, name);
    const { score, fingerprint } = await scorePicture(variants.POOR, contentHash, previous);
    const recorded = await context.db.transaction().execute(async (trx) => {
      const finished = await mine(trx)
        .set({
          status: 'done',
          durationMs: Math.round(performance.now() - started),
          width,
          height,
          bytes: input.length,
          contentHash,
          score,
          fingerprint,
          lat: camera.lat,
          lng: camera.lng,
          direction: camera.direction,
        })
        .executeTakeFirst();
      // Another replica took this claim over meanwhile: its capture is the one recorded.
      if (!finished.numUpdatedRows) return false;
      await announceImage(trx, { ...image, score });
      return true;
    });
    if (!recorded) return { outcome: 'skipped' };
    context.metrics?.finished('ok', (performance.now() - started) / 1000);
    await context.bus.publish(CAMERA_REFRESHED, { webcamId: camera.webcamId });
    return { outcome: 'captured', image };
  } catch (error) {
    const message = (error as Error).message.slice(0, 500);
    // Counted before it is recorded: a failure to record it is a failed capture too.
    context.metrics?.finished('failed', (performance.now() - started) / 1000);
    await context.db.transaction().execute(async (trx) => {
      await mine(trx)
        .set({ status: 'failed', durationMs: Math.round(performance.now() - started), error: message })
        .execute();
      await publishEvent(trx, SUBJECTS.captureFailed, { webcamId: camera.webcamId, name, error: message });
    });
    context.log.warn({ camera: camera.name, tick: name, error: message }, 'capture failed');
    await context.bus.publish(CAMERA_REFRESHED, { webcamId: camera.webcamId });
    return { outcome: 'failed', error: message };
  } finally {
    clearInterval(heartbeat);
  }
}
