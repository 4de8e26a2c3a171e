import { Cron } from 'croner';
import type { CameraRow } from '../database.ts';
import { nextTickAfter } from './capture-clock.ts';

/** Every `intervalMin` minutes on the minute (1–60). */
export function cronPatternFor(intervalMin: number): string {
  const interval = Math.min(60, Math.max(1, intervalMin));
  return interval === 60 ? '0 * * * *' : `*/${interval} * * * *`;
}

/** A clock running `scale` times faster than real time (tests only, see capture-clock.ts). */
export interface ScaledTime {
  clock: () => Date;
  scale: number;
}

interface Job {
  stop(): void;
  nextRun(): Date | null;
}

function cronJob(intervalMin: number, run: (tick: Date) => Promise<void>): Job {
  const cron = new Cron(cronPatternFor(intervalMin), { protect: true, catch: true }, async (self: Cron) => {
    // The tick is the scheduled minute, whatever the delay of this process.
    const tick = self.currentRun() ?? new Date();
    tick.setSeconds(0, 0);
    await run(tick);
  });
  return { stop: () => cron.stop(), nextRun: () => cron.nextRun() };
}

/**
 * The same ticks on a scaled clock: a timer to each next virtual tick. No overlap protection as croner's:
 * a capture's real seconds are many virtual minutes, and skipping ticks for it would not happen in real time.
 */
function scaledJob(intervalMin: number, time: ScaledTime, run: (tick: Date) => Promise<void>): Job {
  let next = nextTickAfter(time.clock(), intervalMin);
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const arm = () => {
    const realMs = (next.getTime() - time.clock().getTime()) / time.scale;
    timer = setTimeout(fire, Math.max(0, Math.ceil(realMs)));
  };
  const fire = () => {
    if (stopped) return;
    // A timer may wake a hair before the virtual minute: wait for it.
    if (time.clock() < next) return arm();
    const tick = next;
    // Minutes this process slept through are skipped, as croner skips them.
    next = nextTickAfter(time.clock(), intervalMin);
    arm();
    // As croner's `catch`: a failed tick leaves the next ones scheduled.
    run(tick).catch(() => {});
  };
  arm();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    nextRun: () => (stopped ? null : new Date(next)),
  };
}

/**
 * One job per camera, every `intervalMin` minutes on the minute; follows camera changes without restarts.
 * On croner in real time; with `time` scaled (tests), on timers to the minutes of that clock.
 */
export function createCaptureScheduler(onTick: (webcamId: number, tick: Date) => Promise<unknown>, time?: ScaledTime) {
  const jobs = new Map<number, { job: Job; intervalMin: number }>();

  function unschedule(webcamId: number) {
    jobs.get(webcamId)?.job.stop();
    jobs.delete(webcamId);
  }

  return {
    schedule(camera: Pick<CameraRow, 'webcamId' | 'intervalMin'>) {
      if (jobs.get(camera.webcamId)?.intervalMin === camera.intervalMin) return;
      unschedule(camera.webcamId);
      const run = async (tick: Date) => {
        await onTick(camera.webcamId, tick);
      };
      const job =
        time && time.scale !== 1 ? scaledJob(camera.intervalMin, time, run) : cronJob(camera.intervalMin, run);
      jobs.set(camera.webcamId, { job, intervalMin: camera.intervalMin });
    },
    unschedule,
    scheduledIds(): number[] {
      return [...jobs.keys()];
    },
    nextRun(webcamId: number): Date | null {
      return jobs.get(webcamId)?.job.nextRun() ?? null;
    },
    stop() {
      for (const webcamId of [...jobs.keys()]) unschedule(webcamId);
    },
    get size() {
      return jobs.size;
    },
  };
}

export type CaptureScheduler = ReturnType<typeof createCaptureScheduler>;
