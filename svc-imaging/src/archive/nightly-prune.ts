import { Cron } from 'croner';
import type { FastifyInstance } from 'fastify';
import type { CaptureContext } from '../capture/capture-tick.ts';
import type { ImagingOptions } from '../options.ts';
import { DEFAULT_ARCHIVE_DAYS, DEFAULT_RETENTION_DAYS, pruneImages } from './prune.ts';
import { tierBoundaries } from './retention-tiers.ts';

/**
 * The archive's nightly thinning in tiers (with `options.schedule`): daily at a quiet hour, and whichever
 * replica claims the day prunes; every replica clears its own old zoom tiles. Stops when the app closes.
 */
export function scheduleNightlyPrune(app: FastifyInstance, options: ImagingOptions, context: CaptureContext): void {
  if (!options.schedule) return;
  const pruning = new Cron('17 3 * * *', { protect: true, catch: true, timezone: 'Europe/Zurich' }, async () => {
    const tiers = {
      retentionDays: options.retentionDays ?? DEFAULT_RETENTION_DAYS,
      archiveDays: options.archiveDays ?? DEFAULT_ARCHIVE_DAYS,
    };
    const result = await pruneImages(context, tiers);
    if (result.outcome === 'pruned') app.log.info(result, 'old images pruned');
    // Zoom tiles are each replica's own cache: every replica clears its old days, claim or not.
    await context.zoomTiles?.pruneDaysBefore(tierBoundaries(tiers, new Date()).allFrom);
  });
  app.addHook('onClose', async () => {
    pruning.stop();
  });
}
