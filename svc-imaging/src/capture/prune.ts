import { imageNameOf, SUBJECTS } from '@lakecams/contracts';
import { publishEvent } from '@lakecams/service-kit';
import { CAMERA_REFRESHED } from './plugins/app/delivery-state.ts';
import { sql } from 'kysely';
import type { CaptureContext } from './capture.ts';
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
  const claimed = await context.db
    .insertInto('jobRuns')
    .values({ job: 'prune', tick: imageNameOf(now).slice(0, 8), status: 'running', claimedBy: context.replicaId })
    .onConflict((oc) => oc.columns(['job', 'tick']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!claimed) return { outcome: 'skipped' };
  const started = performance.now();
  try {
    // Failed captures left no picture: beyond the retention they are no history worth keeping.
    const failed = await context.db
      .deleteFrom('captures')
      .where('name', '<', `${allFrom}0000`)
      .where('status', '!=', 'done')
      .executeTakeFirst();
    let captures = Number(failed.numDeletedRows);
    const plans = await plansFor(context, tiers, now, allFrom, hourlyFrom);
    for (const plan of plans) {
      captures += await thinDay(context, plan);
      // Every replica forgets the captures it looked up for this camera: a removed one answers 404 again.
      await context.bus.publish(CAMERA_REFRESHED, { webcamId: plan.webcamId });
    }
    await context.zoomTiles?.pruneDaysBefore(allFrom);
    await context.db
      .updateTable('jobRuns')
      .set({
        status: 'done',
        durationMs: Math.round(performance.now() - started),
        detail: JSON.stringify({ allFrom, hourlyFrom, captures, days: plans.length }),
      })
      .where('id', '=', claimed.id)
      .execute();
    return { outcome: 'pruned', before: allFrom, captures, days: plans.length };
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

/** Plans for the camera-days beyond the retention that hold more than their tier keeps. */
async function plansFor(
  context: CaptureContext,
  tiers: RetentionTiers,
  now: Date,
  allFrom: string,
  hourlyFrom: string,
): Promise<DayPlan[]> {
  const day = sql<string>`left(name, 8)`;
  // A day still to thin has two pictures in one hour, or (beyond the archive) two pictures at all.
  const candidates = await context.db
    .selectFrom('captures')
    .select(['webcamId', day.as('day')])
    .where('status', '=', 'done')
    .where('name', '<', `${allFrom}0000`)
    .groupBy(['webcamId', day])
    .having((eb) =>
      eb.or([
        eb(eb.fn.countAll(), '>', sql<number>`count(distinct left(name, 10))`),
        eb.and([eb(day, '<', hourlyFrom), eb(eb.fn.countAll(), '>', 1)]),
      ]),
    )
    .execute();
  const plans: DayPlan[] = [];
  for (const candidate of candidates) {
    const [pictures, choice] = await Promise.all([
      context.db
        .selectFrom('captures')
        .select(['webcamId', 'name', 'score'])
        .where('webcamId', '=', candidate.webcamId)
        .where('status', '=', 'done')
        .where('name', '>=', `${candidate.day}0000`)
        .where('name', '<=', `${candidate.day}2359`)
        .execute(),
      context.db
        .selectFrom('bestOfChoices')
        .select('name')
        .where('webcamId', '=', candidate.webcamId)
        .where('day', '=', candidate.day)
        .executeTakeFirst(),
    ]);
    const choices = new Map(choice ? [[`${candidate.webcamId}:${candidate.day}`, choice.name]] : []);
    plans.push(...planRetention(pictures, choices, tiers, now));
  }
  return plans;
}

/** Rows, files and the announcement of one camera-day commit together; when files cannot go, the rows stay. */
async function thinDay(context: CaptureContext, plan: DayPlan): Promise<number> {
  return context.db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('captures')
      .where('webcamId', '=', plan.webcamId)
      .where('name', 'in', plan.remove)
      .executeTakeFirst();
    const camera = await trx
      .selectFrom('cameras')
      .select('name')
      .where('webcamId', '=', plan.webcamId)
      .executeTakeFirst();
    if (camera) await context.store.removePictures(camera.name, plan.remove);
    await publishEvent(trx, SUBJECTS.imagesThinned, { webcamId: plan.webcamId, day: plan.day, keep: plan.keep });
    return Number(removed.numDeletedRows);
  });
}
