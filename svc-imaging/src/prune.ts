import { imageNameOf, SUBJECTS } from '@lakecams/contracts';
import type { CaptureContext } from './capture.ts';

export const DEFAULT_RETENTION_DAYS = 14;

export type PruneOutcome =
  | { outcome: 'pruned'; before: string; captures: number; days: number }
  | { outcome: 'skipped' };

/**
 * Forget images older than the retention: their rows, their files (whole days), and tell svc-webcam.
 * One run per day across replicas: the `job_runs` row is the claim.
 */
export async function pruneImages(
  context: CaptureContext,
  retentionDays: number,
  now = new Date(),
): Promise<PruneOutcome> {
  const before = imageNameOf(new Date(now.getTime() - retentionDays * 24 * 3600_000)).slice(0, 8);
  const claimed = await context.db
    .insertInto('jobRuns')
    .values({ job: 'prune', tick: imageNameOf(now).slice(0, 8), status: 'running', claimedBy: context.replicaId })
    .onConflict((oc) => oc.columns(['job', 'tick']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!claimed) return { outcome: 'skipped' };
  const started = performance.now();
  try {
    const removed = await context.db.deleteFrom('captures').where('name', '<', `${before}0000`).executeTakeFirst();
    const days = await context.store.pruneDaysBefore(before);
    await context.bus.publishEvent(SUBJECTS.imagesPruned, { before: `${before}0000` });
    const captures = Number(removed.numDeletedRows);
    await context.db
      .updateTable('jobRuns')
      .set({
        status: 'done',
        durationMs: Math.round(performance.now() - started),
        detail: JSON.stringify({ before, captures, days }),
      })
      .where('id', '=', claimed.id)
      .execute();
    return { outcome: 'pruned', before, captures, days };
  } catch (error) {
    await context.db
      .updateTable('jobRuns')
      .set({
        status: 'failed',
        durationMs: Math.round(performance.now() - started),
        error: (error as Error).message.slice(0, 500),
      })
      .where('id', '=', claimed.id)
      .execute();
    throw error;
  }
}
