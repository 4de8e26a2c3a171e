import type { BestOf, CameraBestOf } from '@lakecams/contracts';
import { BestOfChosen } from '@lakecams/contracts/messages';
import { inTransaction, publishEvent } from '@lakecams/service-kit';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../database.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** A day's pictures `yyyyMMdd0000`–`yyyyMMdd2359`. */
const dayRange = (day: string) => [`${day}0000`, `${day}2359`] as const;

/** The best picture of a camera's day: the admin's choice (best_of_choices), else the highest score, the earlier of equals. */
export function createBestOfRepository(db: Db) {
  return {
    async bestOf(webcamId: number, day: string): Promise<BestOf | undefined> {
      const [from, to] = dayRange(day);
      const chosen = await db
        .selectFrom('bestOfChoices')
        .innerJoin('webcamImages', (join) =>
          join
            .onRef('webcamImages.webcamId', '=', 'bestOfChoices.webcamId')
            .onRef('webcamImages.name', '=', 'bestOfChoices.name'),
        )
        .select(['webcamImages.name', 'webcamImages.score'])
        .where('bestOfChoices.webcamId', '=', webcamId)
        .where('bestOfChoices.day', '=', day)
        .executeTakeFirst();
      if (chosen) return { ...chosen, chosenBy: 'admin' };
      const scored = await db
        .selectFrom('webcamImages')
        .select(['name', 'score'])
        .where('webcamId', '=', webcamId)
        .where('name', '>=', from)
        .where('name', '<=', to)
        .orderBy(sql`score desc nulls last`)
        .orderBy('name')
        .limit(1)
        .executeTakeFirst();
      return scored && { ...scored, chosenBy: 'score' };
    },

    /** The best picture of every camera that has pictures on the day, by camera name. */
    async bestOfDay(day: string): Promise<CameraBestOf[]> {
      const [from, to] = dayRange(day);
      const rows = await db
        .selectFrom('webcams')
        .innerJoinLateral(
          (eb) =>
            eb
              .selectFrom('webcamImages')
              .leftJoin('bestOfChoices', (join) =>
                join
                  .onRef('bestOfChoices.webcamId', '=', 'webcamImages.webcamId')
                  .onRef('bestOfChoices.name', '=', 'webcamImages.name')
                  .on('bestOfChoices.day', '=', day),
              )
              .select(['webcamImages.name', 'webcamImages.score', 'bestOfChoices.day as chosenDay'])
              .whereRef('webcamImages.webcamId', '=', 'webcams.id')
              .where('webcamImages.name', '>=', from)
              .where('webcamImages.name', '<=', to)
              .orderBy(sql`best_of_choices.day is null`)
              .orderBy(sql`webcam_images.score desc nulls last`)
              .orderBy('webcamImages.name')
              .limit(1)
              .as('best'),
          (join) => join.onTrue(),
        )
        .select(['webcams.id', 'webcams.name as camera', 'best.name', 'best.score', 'best.chosenDay'])
        .orderBy('webcams.name')
        .execute();
      return rows.map((row) => ({
        camera: row.camera,
        webcamId: row.id,
        name: row.name,
        score: row.score,
        chosenBy: row.chosenDay ? 'admin' : 'score',
      }));
    },

    /** Whether the camera has this picture on the list. */
    async hasImage(webcamId: number, name: string): Promise<boolean> {
      const row = await db
        .selectFrom('webcamImages')
        .select('name')
        .where('webcamId', '=', webcamId)
        .where('name', '=', name)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The admin's choice of a day's best (null: the score decides again), announced with the change. */
    async choose(webcamId: number, day: string, image: string | null): Promise<void> {
      await inTransaction(db, async (trx) => {
        if (image) {
          await trx
            .insertInto('bestOfChoices')
            .values({ webcamId, day, name: image })
            .onConflict((oc) => oc.columns(['webcamId', 'day']).doUpdateSet({ name: image }))
            .execute();
        } else {
          await trx.deleteFrom('bestOfChoices').where('webcamId', '=', webcamId).where('day', '=', day).execute();
        }
        await publishEvent(trx, BestOfChosen, { webcamId, day, image });
      });
    },
  };
}

export type BestOfRepository = ReturnType<typeof createBestOfRepository>;
