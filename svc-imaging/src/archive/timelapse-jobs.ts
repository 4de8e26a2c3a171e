import type { FastifyInstance } from 'fastify';
import type { CameraRow, TimelapseLevel, TimelapseRow } from '../database.ts';
import type { CaptureContext } from '../capture/capture-tick.ts';
import type { ImagingOptions } from '../options.ts';
import type { CameraDirectory } from '../repositories/camera-directory-repository.ts';
import type { TimelapseRepository } from '../repositories/timelapse-repository.ts';
import { DEFAULT_RETENTION_DAYS } from './prune.ts';
import {
  DEFAULT_TIMELAPSE_TODAY_MINUTES,
  dayOf,
  makeTimelapse,
  TIMELAPSE_LEVELS,
  type TimelapseContext,
  type TimelapseOutcome,
} from './timelapse-maker.ts';

/** How long a request waits for a clip another replica is making. */
const WAIT_FOR_OTHER_REPLICA_MS = 120_000;

export type ClipAnswer = { status: 'ready'; bytes: Buffer; row: TimelapseRow } | { status: 'no pictures' | 'failed' };

export interface TimelapseJobs {
  context: TimelapseContext;
  /** The clip of a camera's day at a level, made now when it is missing (once, however many ask). */
  clip(camera: CameraRow, day: string, level: TimelapseLevel): Promise<ClipAnswer>;
  /** Yesterday's clips of every camera, and today's clips made again once they are N minutes old. */
  runScheduledPass(now?: Date): Promise<TimelapseOutcome[]>;
}

/** Day time-lapse clips: made once per finished day, today's remade every N minutes, single-flight on request. */
export function createTimelapseJobs(
  app: FastifyInstance,
  options: ImagingOptions,
  {
    capture,
    cameraDirectory,
    timelapseRepository: repository,
  }: { capture: CaptureContext; cameraDirectory: CameraDirectory; timelapseRepository: TimelapseRepository },
): TimelapseJobs {
  const context: TimelapseContext = {
    captures: capture.captures,
    store: capture.store,
    repository,
    log: app.log,
    replicaId: capture.replicaId,
    todayMinutes: options.timelapseTodayMinutes ?? DEFAULT_TIMELAPSE_TODAY_MINUTES,
  };
  const inFlight = new Map<string, Promise<TimelapseOutcome>>();
  let closing = false;

  function makeOnce(
    camera: Pick<CameraRow, 'webcamId' | 'name'>,
    day: string,
    level: TimelapseLevel,
    make: () => Promise<TimelapseOutcome>,
  ): Promise<TimelapseOutcome> {
    const key = `${camera.webcamId}/${day}/${level}`;
    const running = inFlight.get(key);
    if (running) return running;
    const made = make().finally(() => inFlight.delete(key));
    inFlight.set(key, made);
    return made;
  }

  async function clip(camera: CameraRow, day: string, level: TimelapseLevel): Promise<ClipAnswer> {
    const key = { webcamId: camera.webcamId, day, level };
    const deadline = Date.now() + WAIT_FOR_OTHER_REPLICA_MS;
    for (let round = 0; ; round++) {
      if (round > 0 && (Date.now() > deadline || closing)) return { status: 'failed' };
      const row = await repository.find(key);
      if (row?.status === 'done') {
        const bytes = await capture.store.readClip(camera.name, day, level);
        if (bytes) return { status: 'ready', bytes, row };
      }
      if (row?.status === 'failed' && round > 0) return { status: 'failed' };
      if (row?.status !== 'running' || round === 0) {
        // Missing, failed earlier or its file gone: make it now (a running claim of a live replica is left alone).
        const made = await makeOnce(camera, day, level, () =>
          makeTimelapse(context, camera, day, level, { force: row?.status !== 'running' }),
        );
        if (made.outcome === 'empty') return { status: 'no pictures' };
        if (made.outcome === 'failed') return { status: 'failed' };
        if (made.outcome === 'made') continue;
      }
      // Another replica is making it.
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  async function runScheduledPass(now = new Date()): Promise<TimelapseOutcome[]> {
    const at = { ...context, clock: () => now };
    const outcomes: TimelapseOutcome[] = [];
    const yesterday = dayOf(new Date(now.getTime() - 24 * 3600_000));
    const cameras = await cameraDirectory.list();
    for (const camera of cameras) {
      for (const level of TIMELAPSE_LEVELS) {
        if (closing) return outcomes;
        const row = await repository.find({ webcamId: camera.webcamId, day: yesterday, level });
        if (row?.complete) continue;
        outcomes.push(await makeOnce(camera, yesterday, level, () => makeTimelapse(at, camera, yesterday, level)));
      }
    }
    // Today's clips that visitors asked for, made again once they are N minutes old.
    const due = await repository.finishedBefore(dayOf(now), new Date(now.getTime() - context.todayMinutes * 60_000));
    const byId = new Map(cameras.map((camera) => [camera.webcamId, camera]));
    for (const key of due) {
      const camera = byId.get(key.webcamId);
      if (!camera || closing) continue;
      outcomes.push(await makeOnce(camera, key.day, key.level, () => makeTimelapse(at, camera, key.day, key.level)));
    }
    await pruneClips(now);
    return outcomes.filter((outcome) => outcome.outcome !== 'empty');
  }

  /** Clips go with their day's pictures, after the retention (the archive keeps only a few pictures a day). */
  async function pruneClips(now: Date) {
    const keepFrom = dayOf(new Date(now.getTime() - (options.retentionDays ?? DEFAULT_RETENTION_DAYS) * 24 * 3600_000));
    for (const clip of await repository.before(keepFrom)) {
      await capture.store.removeClip(clip.camera, clip.day, clip.level);
      await repository.forget(clip);
    }
  }

  let passing: Promise<unknown> | null = null;
  const timer = options.schedule
    ? setInterval(() => {
        if (passing || closing) return;
        passing = runScheduledPass()
          .catch((err) => app.log.warn({ err }, 'time-lapse pass failed'))
          .finally(() => {
            passing = null;
          });
      }, 60_000)
    : null;
  timer?.unref();
  app.addHook('onClose', async () => {
    closing = true;
    if (timer) clearInterval(timer);
    await passing;
    await Promise.allSettled(inFlight.values());
  });
  return { context, clip, runScheduledPass };
}
