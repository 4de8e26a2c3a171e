import { Cron } from 'croner';
import type { CameraRow } from '../database.ts';

/** Every `intervalMin` minutes on the minute (1–60). */
export function cronPatternFor(intervalMin: number): string {
  const interval = Math.min(60, Math.max(1, intervalMin));
  return interval === 60 ? '0 * * * *' : `*/${interval} * * * *`;
}

/** One cron job per camera, every `intervalMin` minutes on the minute; follows camera changes without restarts. */
export function createCaptureScheduler(onTick: (webcamId: number, tick: Date) => Promise<unknown>) {
  const jobs = new Map<number, { cron: Cron; intervalMin: number }>();

  function unschedule(webcamId: number) {
    jobs.get(webcamId)?.cron.stop();
    jobs.delete(webcamId);
  }

  return {
    schedule(camera: Pick<CameraRow, 'webcamId' | 'intervalMin'>) {
      if (jobs.get(camera.webcamId)?.intervalMin === camera.intervalMin) return;
      unschedule(camera.webcamId);
      const pattern = cronPatternFor(camera.intervalMin);
      const cron = new Cron(pattern, { protect: true, catch: true }, async (self: Cron) => {
        // The tick is the scheduled minute, whatever the delay of this process.
        const tick = self.currentRun() ?? new Date();
        tick.setSeconds(0, 0);
        await onTick(camera.webcamId, tick);
      });
      jobs.set(camera.webcamId, { cron, intervalMin: camera.intervalMin });
    },
    unschedule,
    scheduledIds(): number[] {
      return [...jobs.keys()];
    },
    nextRun(webcamId: number): Date | null {
      return jobs.get(webcamId)?.cron.nextRun() ?? null;
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
