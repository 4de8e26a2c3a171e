import { type Kysely, sql } from 'kysely';
import type { Database } from '../database.ts';

/** The `embed_views` table: a booked page's player views per camera and day, a number and nothing else. */
export function createEmbedViewRepository(db: Kysely<Database>) {
  return {
    async count(webcamId: number, page: string, day: string): Promise<void> {
      await db
        .insertInto('embedViews')
        .values({ webcamId, page, day, views: 1 })
        .onConflict((oc) =>
          oc.columns(['webcamId', 'page', 'day']).doUpdateSet({ views: sql<number>`embed_views.views + 1` }),
        )
        .execute();
    },
    /** The page's views of the camera from `fromDay` on, newest day first. */
    async perDay(webcamId: number, page: string, fromDay: string): Promise<{ day: string; views: number }[]> {
      return db
        .selectFrom('embedViews')
        .select(['day', 'views'])
        .where('webcamId', '=', webcamId)
        .where('page', '=', page)
        .where('day', '>=', fromDay)
        .orderBy('day', 'desc')
        .execute();
    },
  };
}

export type EmbedViewRepository = ReturnType<typeof createEmbedViewRepository>;
