import { imageNameOf, SUBJECTS } from '@lakecams/contracts';
import { publishEvent } from '@lakecams/service-kit';
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
    // Rows, outcome and event commit together; when the files cannot be removed, the rows stay too.
    return await context.db.transaction().execute(async (trx) => {
      const removed = await trx.deleteFrom('captures').where('name', '<', `${before}0000`).executeTakeFirst();
      const days = await context.store.pruneDaysBefore(before);
      await context.zoomTiles?.pruneDaysBefore(before);
      await publishEvent(trx, SUBJECTS.imagesPruned, { before: `${before}0000` });
      const captures = Number(removed.numDeletedRows);
      await trx
        .updateTable('jobRuns')
        .set({
          status: 'done',
          durationMs: Math.round(performance.now() - started),
          detail: JSON.stringify({ before, captures, days }),
        })
        .where('id', '=', claimed.id)
        .execute();
      return { outcome: 'pruned', before, captures, days } as const;
    });
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
