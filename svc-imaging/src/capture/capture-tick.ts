import { type Image, imageNameOf } from '@lakecams/contracts';
import { Counter, Histogram, type Registry } from '@lakecams/service-kit';
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { DEFAULT_FETCH_LIMITS, type FetchLimits, fetchCameraImage } from './camera-fetch.ts';
import { withoutUrlLogins } from './camera-login.ts';
import type { CameraRow } from '../database.ts';
import type { ZoomTiles } from '../archive/zoom-tiles.ts';
import { scorePicture } from './score.ts';
import { deriveQualityVariants } from './derive-variants.ts';
import type { ImageStore } from '../store/image-store.ts';
import type { BestOfChoiceRepository } from '../repositories/best-of-choice-repository.ts';
import type { CaptureClaim, CaptureClaimRepository } from '../repositories/capture-claim-repository.ts';
import type { CaptureHistoryRepository } from '../repositories/capture-history-repository.ts';
import type { CaptureQueryRepository } from '../repositories/capture-query-repository.ts';
import type { JobRunRepository } from '../repositories/job-run-repository.ts';

export type CaptureOutcome =
  | { outcome: 'captured'; image: Image }
  | { outcome: 'skipped' }
  | { outcome: 'failed'; error: string };

export interface CaptureContext {
  /** Claims on a camera's tick and their outcome. */
  claims: CaptureClaimRepository;
  /** The stored captures, read. */
  captures: CaptureQueryRepository;
  /** Stored captures changed after the fact (the archive's thinning). */
  history: CaptureHistoryRepository;
  jobRuns: JobRunRepository;
  bestOfChoices: BestOfChoiceRepository;
  store: ImageStore;
  /** Tell every replica that what a camera's delivery depends on changed (a capture, a prune). */
  refreshed(webcamId: number): Promise<void>;
  log: FastifyBaseLogger;
  /** Which replica claims a tick (shown on the job dashboard). */
  replicaId: string;
  limits?: FetchLimits;
  /** How often a running capture renews its claim (default 5 s). */
  heartbeatMs?: number;
  /** Where the picture comes from, fetched within `limits`; the camera URL by default. */
  source?: (camera: CameraRow, at: Date, limits: FetchLimits) => Promise<Buffer>;
  /** Deep-zoom tiles made from the pictures, pruned with them. */
  zoomTiles?: ZoomTiles;
  metrics?: CaptureMetrics;
  /** Now, for when a capture starts and a pushed picture arrives; the real clock unless a test moves it. */
  clock?: () => Date;
}

/** Now by the context's clock. */
export function nowOf(context: Pick<CaptureContext, 'clock'>): Date {
  return context.clock?.() ?? new Date();
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
  const claim = { webcamId: camera.webcamId, name: imageNameOf(tick), replicaId: context.replicaId };
  // An upload by hand takes the minute over (unless a capture of it is still running).
  if (!(await context.claims.claim(claim, attempt, uploaded !== undefined, nowOf(context))))
    return { outcome: 'skipped' };
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
  const taken = await context.claims.takeOverStale(context.replicaId, staleAfterMs);
  const outcomes: CaptureOutcome[] = [];
  for (const claim of taken) {
    const camera = await cameraById(claim.webcamId);
    const tick = new Date(claim.startedAt);
    tick.setSeconds(0, 0);
    if (camera && imageNameOf(tick) === claim.name) {
      context.log.warn({ camera: camera.name, tick: claim.name }, 'taking over a capture whose replica stopped');
      outcomes.push(await runClaimedCapture(context, camera, tick));
    } else {
      await context.claims.abandon(claim.webcamId, claim.name);
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
  const claim: CaptureClaim = { webcamId: camera.webcamId, name, replicaId: context.replicaId };
  // While this runs, the heartbeat tells the other replicas this claim is alive.
  const heartbeat = setInterval(() => {
    context.claims
      .heartbeat(claim)
      // A missed beat is retried at the next one; a takeover needs several in a row.
      .catch((err) => context.log.warn({ err, camera: camera.name }, 'capture heartbeat failed'));
  }, context.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
  heartbeat.unref();
  const started = performance.now();
  try {
    const source = context.source ?? ((c, at, limits) => fetchCameraImage(c.pattern, at, limits));
    const input = uploaded ?? (await source(camera, tick, context.limits ?? DEFAULT_FETCH_LIMITS));
    const { width, height, variants, modern } = await deriveQualityVariants(input);
    await context.store.save(camera.name, name, variants, modern);
    const image = imageOf(camera, name);
    const contentHash = createHash('sha256').update(input).digest('hex');
    // Measured on the smallest level: the same judgement as on the full picture, at a fraction of the cost.
    const previous = await context.captures.previous(camera.webcamId, name);
    const { score, fingerprint } = await scorePicture(variants.POOR, contentHash, previous);
    // Frozen as judgeHealth has it: the very same bytes. A score of 0 is not enough, two black nights are alike.
    const frozen = previous?.contentHash === contentHash;
    const record = {
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
    };
    // Another replica took this claim over meanwhile: its capture is the one recorded.
    if (!(await context.claims.recordDone(claim, record, image, frozen))) return { outcome: 'skipped' };
    context.metrics?.finished('ok', (performance.now() - started) / 1000);
    await context.refreshed(camera.webcamId);
    return { outcome: 'captured', image };
  } catch (error) {
    // Whatever failed, a camera's login in its text goes no further (record, event, log, answer).
    const message = withoutUrlLogins((error as Error).message).slice(0, 500);
    // Counted before it is recorded: a failure to record it is a failed capture too.
    context.metrics?.finished('failed', (performance.now() - started) / 1000);
    await context.claims.recordFailed(claim, Math.round(performance.now() - started), message);
    context.log.warn({ camera: camera.name, tick: name, error: message }, 'capture failed');
    await context.refreshed(camera.webcamId);
    return { outcome: 'failed', error: message };
  } finally {
    clearInterval(heartbeat);
  }
}
