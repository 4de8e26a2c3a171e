import { imageNameOf } from '@lakecams/contracts';
import type { CaptureContext } from '../capture/capture-tick.ts';
import { type DayPlan, planRetention, type RetentionTiers, tierBoundaries } from './retention-tiers.ts';

export { DEFAULT_ARCHIVE_DAYS, DEFAULT_RETENTION_DAYS } from './retention-tiers.ts';

export type PruneOutcome =
  | { outcome: 'pruned'; before: string; captures: number; days: number }
  | { outcome: 'skipped' };

/**
 * Thin the archive to its tiers (retention-tiers.ts): every capture for `retentionDays`, the best of each
 * hour until `archiveDays`, the best of each day forever. Each thinned camera-day loses its rows and files
 * and is announced to svc-webcam in one transaction. One run per day across replicas: the `job_runs` row
 * is the claim.
 */
export async function pruneImages(
  context: CaptureContext,
  tiers: RetentionTiers,
  now = new Date(),
): Promise<PruneOutcome> {
  const { allFrom, hourlyFrom } = tierBoundaries(tiers, now);
  const claimed = await context.jobRuns.claim('prune', imageNameOf(now).slice(0, 8), context.replicaId);
  if (!claimed) return { outcome: 'skipped' };
  const started = performance.now();
  try {
    // Failed captures left no picture: beyond the retention they are no history worth keeping.
    let captures = await context.history.deleteFailedBefore(`${allFrom}0000`);
    const plans = await plansFor(context, tiers, now, allFrom, hourlyFrom);
    for (const plan of plans) {
      captures += await thinDay(context, plan);
      // Every replica forgets the captures it looked up for this camera: a removed one answers 404 again.
      await context.refreshed(plan.webcamId);
    }
    await context.zoomTiles?.pruneDaysBefore(allFrom);
    await context.jobRuns.finish(claimed.id, {
      durationMs: Math.round(performance.now() - started),
      detail: JSON.stringify({ allFrom, hourlyFrom, captures, days: plans.length }),
    });
    return { outcome: 'pruned', before: allFrom, captures, days: plans.length };
  } catch (error) {
    await context.jobRuns.finish(claimed.id, {
      durationMs: Math.round(performance.now() - started),
      error: (error as Error).message.slice(0, 500),
    });
    throw error;
  }
}

/** Plans for the camera-days beyond the retention that hold more than their tier keeps. */
async function plansFor(
  context: CaptureContext,
  tiers: RetentionTiers,
  now: Date,
  allFrom: string,
  hourlyFrom: string,
): Promise<DayPlan[]> {
  // A day still to thin has two pictures in one hour, or (beyond the archive) two pictures at all.
  const candidates = await context.history.daysToThin(allFrom, hourlyFrom);
  const plans: DayPlan[] = [];
  for (const candidate of candidates) {
    const [pictures, choice] = await Promise.all([
      context.captures.picturesOfDay(candidate.webcamId, candidate.day),
      context.bestOfChoices.choiceOf(candidate.webcamId, candidate.day),
    ]);
    const choices = new Map(choice ? [[`${candidate.webcamId}:${candidate.day}`, choice]] : []);
    plans.push(...planRetention(pictures, choices, tiers, now));
  }
  return plans;
}

/** Rows, files and the announcement of one camera-day commit together; when files cannot go, the rows stay. */
function thinDay(context: CaptureContext, plan: DayPlan): Promise<number> {
  return context.history.thinDay(plan, async (cameraName) => {
    await context.store.removePictures(cameraName, plan.remove);
  });
}
