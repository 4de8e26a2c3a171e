import type { Kysely } from 'kysely';
import type { Database } from '../database.ts';

/** The `best_of_choices` table: an admin's best picture of a camera's day, which the archive keeps forever. */
export function createBestOfChoiceRepository(db: Kysely<Database>) {
  return {
    /** Keep `image` as the day's best, or (null) let the score decide again. */
    async choose(webcamId: number, day: string, image: string | null): Promise<void> {
      if (image) {
        await db
          .insertInto('bestOfChoices')
          .values({ webcamId, day, name: image })
          .onConflict((oc) => oc.columns(['webcamId', 'day']).doUpdateSet({ name: image }))
          .execute();
      } else {
        await db.deleteFrom('bestOfChoices').where('webcamId', '=', webcamId).where('day', '=', day).execute();
      }
    },
    async choiceOf(webcamId: number, day: string): Promise<string | undefined> {
      const choice = await db
        .selectFrom('bestOfChoices')
        .select('name')
        .where('webcamId', '=', webcamId)
        .where('day', '=', day)
        .executeTakeFirst();
      return choice?.name;
    },
  };
}

export type BestOfChoiceRepository = ReturnType<typeof createBestOfChoiceRepository>;
