import type { Kysely } from 'kysely';
import type { CameraRow, Database } from './database.ts';

export type OfflineReason = 'frozen' | 'silent' | null;

/** Intervals without a successful capture after which a camera counts as offline. */
export const SILENT_INTERVALS = 3;

/**
 * A camera is offline when its last two pictures are the same bytes (frozen), or when it has not
 * delivered within three intervals (silent). A camera that never delivered is not judged yet.
 */
export async function offlineReason(db: Kysely<Database>, camera: CameraRow, now = new Date()): Promise<OfflineReason> {
  const latest = await db
    .selectFrom('captures')
    .select(['contentHash', 'startedAt'])
    .where('webcamId', '=', camera.webcamId)
    .where('status', '=', 'done')
    .orderBy('name', 'desc')
    .limit(2)
    .execute();
  const [last, previous] = latest;
  if (!last) return null;
  if (now.getTime() - last.startedAt.getTime() > SILENT_INTERVALS * camera.intervalMin * 60_000) return 'silent';
  if (previous && last.contentHash !== null && last.contentHash === previous.contentHash) return 'frozen';
  return null;
}
