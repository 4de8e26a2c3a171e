import type { Kysely } from 'kysely';
import type { Database } from '../database.ts';
import type { PreviousCapture } from './score.ts';

/** What the camera's latest stored capture before `name` left to compare a new picture with. */
export async function previousCapture(
  db: Kysely<Database>,
  webcamId: number,
  name: string,
): Promise<PreviousCapture | undefined> {
  return db
    .selectFrom('captures')
    .select(['contentHash', 'fingerprint'])
    .where('webcamId', '=', webcamId)
    .where('status', '=', 'done')
    .where('name', '<', name)
    .orderBy('name', 'desc')
    .limit(1)
    .executeTakeFirst();
}
