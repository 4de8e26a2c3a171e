import { imageNameOf, QUALITIES, type Quality } from '@lakecams/contracts';
import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import type { CameraRow, TimelapseLevel } from '../database.ts';
import type { CaptureQueryRepository } from '../repositories/capture-query-repository.ts';
import type { ImageStore } from '../store/image-store.ts';
import type { TimelapseKey, TimelapseRepository } from '../repositories/timelapse-repository.ts';
import { QUALITY_WIDTHS } from '../store/quality.ts';
import { clipSize, encodeTimelapse } from './timelapse-encoder.ts';

/** Clips go up to MEDIUM (1280 px): a better entitlement gets the MEDIUM clip. */
export const TIMELAPSE_LEVELS: readonly TimelapseLevel[] = ['POOR', 'LOW', 'MEDIUM'];
export const DEFAULT_TIMELAPSE_TODAY_MINUTES = 10;
const DEFAULT_TIMELAPSE_TAKEOVER_MS = 60_000;
/** A day counts as over a few minutes after midnight, when its last captures have finished. */
const DAY_END_GRACE_MS = 5 * 60_000;
/** Progress (and heartbeat) is written at most this often. */
const PROGRESS_EVERY_MS = 1_000;

export function timelapseLevelFor(quality: Quality): TimelapseLevel {
  const rank = Math.min(QUALITIES.indexOf(quality), QUALITIES.indexOf('MEDIUM'));
  return QUALITIES[rank] as TimelapseLevel;
}

export interface TimelapseContext {
  captures: CaptureQueryRepository;
  store: ImageStore;
  repository: TimelapseRepository;
  log: FastifyBaseLogger;
  replicaId: string;
  /** Today's clip is made again at most this often (TIMELAPSE_TODAY_MINUTES). */
  todayMinutes: number;
  takeoverAfterMs?: number;
  clock?: () => Date;
}

export type TimelapseOutcome =
  | { outcome: 'made'; bytes: number; frames: number }
  | { outcome: 'skipped' }
  | { outcome: 'empty' }
  | { outcome: 'failed'; error: string };

/** `yyyyMMdd` of a moment in the region's time. */
export const dayOf = (at: Date) => imageNameOf(at).slice(0, 8);

export function isDayFinished(day: string, now: Date): boolean {
  return day < dayOf(new Date(now.getTime() - DAY_END_GRACE_MS));
}

/**
 * Make one clip of a camera's day at one level, if this replica wins its claim: the day's pictures
 * of that level, in order, encoded to H.264 and kept in the image store beside the pictures.
 */
export async function makeTimelapse(
  context: TimelapseContext,
  camera: Pick<CameraRow, 'webcamId' | 'name'>,
  day: string,
  level: TimelapseLevel,
  options: { force?: boolean } = {},
): Promise<TimelapseOutcome> {
  const clock = context.clock ?? (() => new Date());
  const pictures = await context.captures.namesOfDay(camera.webcamId, day);
  if (pictures.length === 0) return { outcome: 'empty' };
  const now = clock();
  const key: TimelapseKey = { webcamId: camera.webcamId, day, level };
  const dayFinished = isDayFinished(day, now);
  const claimed = await context.repository.claim(key, {
    replicaId: context.replicaId,
    now,
    frames: pictures.length,
    remakeBefore: new Date(now.getTime() - context.todayMinutes * 60_000),
    staleBefore: new Date(now.getTime() - (context.takeoverAfterMs ?? DEFAULT_TIMELAPSE_TAKEOVER_MS)),
    dayFinished,
    force: options.force ?? false,
  });
  if (!claimed) return { outcome: 'skipped' };
  const started = performance.now();
  const read = (index: number) => context.store.read(camera.name, pictures[index] as string, level);
  try {
    const first = await firstReadable(pictures.length, read);
    if (!first) throw new Error(`The pictures of ${day} are no longer stored`);
    const { width, height } = clipSize(first.width, first.height, QUALITY_WIDTHS[level]);
    let reported = 0;
    const clip = await encodeTimelapse(pictures.length, read, {
      width,
      height,
      onProgress: (done) => {
        if (performance.now() - reported < PROGRESS_EVERY_MS) return;
        reported = performance.now();
        context.repository
          .progress(key, context.replicaId, done, clock())
          .catch((err) => context.log.warn({ err, camera: camera.name, day }, 'time-lapse progress not saved'));
      },
    });
    await context.store.saveClip(camera.name, day, level, clip);
    await context.repository.finish(key, context.replicaId, {
      bytes: clip.length,
      width,
      durationMs: Math.round(performance.now() - started),
      complete: dayFinished,
      finishedAt: clock(),
    });
    return { outcome: 'made', bytes: clip.length, frames: pictures.length };
  } catch (error) {
    const message = (error as Error).message;
    context.log.warn({ camera: camera.name, day, level, error: message }, 'time-lapse failed');
    await context.repository.fail(key, context.replicaId, message, clock(), Math.round(performance.now() - started));
    return { outcome: 'failed', error: message };
  }
}

async function firstReadable(count: number, read: (index: number) => Promise<Buffer | null>) {
  for (let index = 0; index < count; index++) {
    const picture = await read(index);
    if (picture) {
      const { width, height } = await sharp(picture).metadata();
      if (width && height) return { width, height };
    }
  }
  return null;
}
