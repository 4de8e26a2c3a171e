import type { Image } from '@lakecams/contracts';
import { ImagesThinned } from '@lakecams/contracts/messages';
import { publishEvent } from '@lakecams/service-kit';
import { type Kysely, sql } from 'kysely';
import type { CameraRow, Database } from '../database.ts';
import { announceImage } from './capture-claim-repository.ts';

/**
 * Changes to stored captures after the fact: a camera's position from a minute on, and the archive's thinning
 * and clean-up. Each change is announced in its transaction.
 */
export function createCaptureHistoryRepository(db: Kysely<Database>) {
  return {
    /**
     * The camera stands at `position` from the minute `from` on: the camera's row and every stored picture
     * from then change together, and each changed picture is announced again. Undefined for an unknown camera.
     */
    movePosition: (
      webcamId: number,
      from: string,
      position: { lat: number; lng: number; direction: number },
      imageOf: (camera: CameraRow, name: string) => Image,
    ): Promise<CameraRow | undefined> =>
      db.transaction().execute(async (trx) => {
        const camera = await trx
          .updateTable('cameras')
          .set(position)
          .where('webcamId', '=', webcamId)
          .returningAll()
          .executeTakeFirst();
        if (!camera) return undefined;
        const updated = await trx
          .updateTable('captures')
          .set(position)
          .where('webcamId', '=', webcamId)
          .where('name', '>=', from)
          .where('status', '=', 'done')
          .returning('name')
          .execute();
        for (const { name } of updated) await announceImage(trx, imageOf(camera, name));
        return camera;
      }),

    /** Failed captures before `name` left no picture: no history worth keeping. */
    async deleteFailedBefore(name: string): Promise<number> {
      const failed = await db
        .deleteFrom('captures')
        .where('name', '<', name)
        .where('status', '!=', 'done')
        .executeTakeFirst();
      return Number(failed.numDeletedRows);
    },

    /** Camera-days before `allFrom` with two pictures in one hour, or (before `hourlyFrom`) two at all. */
    daysToThin(allFrom: string, hourlyFrom: string) {
      const day = sql<string>`left(name, 8)`;
      return db
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
    },

    /**
     * Remove `remove` of a camera-day and announce what is kept, in one transaction; `removeFiles` runs inside
     * it, so when files cannot go the rows stay.
     */
    thinDay: (
      plan: { webcamId: number; day: string; keep: string[]; remove: string[] },
      removeFiles: (cameraName: string) => Promise<void>,
    ): Promise<number> =>
      db.transaction().execute(async (trx) => {
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
        if (camera) await removeFiles(camera.name);
        await publishEvent(trx, ImagesThinned, { webcamId: plan.webcamId, day: plan.day, keep: plan.keep });
        return Number(removed.numDeletedRows);
      }),
  };
}

export type CaptureHistoryRepository = ReturnType<typeof createCaptureHistoryRepository>;
