import type { CameraListItem, CapturedImage, Image, Webcam } from '@lakecams/contracts';
import { CameraDeleted, CameraUpserted } from '@lakecams/contracts/messages';
import { inTransaction, publishEvent } from '@lakecams/service-kit';
import { type ExpressionBuilder, type Kysely, sql, type Transaction } from 'kysely';
import type { Database, NewWebcam, WebcamImageRow } from '../database.ts';
import type { DemoCamera } from '../demo-cameras.ts';

type Db = Kysely<Database> | Transaction<Database>;

export function toImage(row: Pick<WebcamImageRow, 'webcamId' | 'name' | 'lat' | 'lng' | 'direction'>): Image {
  return {
    lat: row.lat,
    lng: row.lng,
    direction: row.direction,
    name: row.name,
    webcamId: row.webcamId,
  };
}

export function createWebcamRepository(db: Db) {
  /**
   * When the newest of `day` (a day's pictures, oldest first) is frozen, the picture its run of equal ones
   * began with: the newest one before it that is not frozen, looked for on earlier days too; null otherwise.
   */
  async function frozenSince(day: readonly WebcamImageRow[]): Promise<string | null> {
    const newest = day.at(-1);
    if (!newest?.frozen) return null;
    const start = day.findLast((image) => !image.frozen);
    if (start) return start.name;
    const earlier = await db
      .selectFrom('webcamImages')
      .select('name')
      .where('webcamId', '=', newest.webcamId)
      .where('name', '<', newest.name)
      .where('frozen', '=', false)
      .orderBy('name', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (earlier) return earlier.name;
    // The run's first picture was thinned away: its oldest kept one.
    const oldest = await db
      .selectFrom('webcamImages')
      .select('name')
      .where('webcamId', '=', newest.webcamId)
      .orderBy('name')
      .limit(1)
      .executeTakeFirstOrThrow();
    return oldest.name;
  }

  return {
    async listCamerasWithLatestImage(filter: { name?: string | undefined } = {}): Promise<CameraListItem[]> {
      // One index look-up per camera (webcam_images' key is webcam_id, name), however long the history.
      let query = db
        .selectFrom('webcams')
        .innerJoinLateral(
          (eb) =>
            eb
              .selectFrom('webcamImages')
              .select(['webcamImages.name as imageName', 'lat', 'lng', 'direction'])
              .whereRef('webcamImages.webcamId', '=', 'webcams.id')
              .orderBy('webcamImages.name', 'desc')
              .limit(1)
              .as('latest'),
          (join) => join.onTrue(),
        )
        .select([
          'webcams.id',
          'webcams.name',
          'webcams.pattern',
          'webcams.distance',
          'webcams.angle',
          'webcams.intervalMin',
          'webcams.webcamType',
          'latest.imageName',
          'latest.lat',
          'latest.lng',
          'latest.direction',
        ])
        .orderBy('webcams.name');
      if (filter.name) query = query.where('webcams.name', '=', filter.name);
      // Only cameras with at least one image are listed: the inner join leaves the others out.
      return (await query.execute()).map(({ imageName, lat, lng, direction, ...webcam }) => ({
        webcam,
        images: [toImage({ webcamId: webcam.id, name: imageName, lat, lng, direction })],
      }));
    },

    async cameras(filter: { name?: string | undefined } = {}): Promise<Webcam[]> {
      let query = db.selectFrom('webcams').selectAll().orderBy('name');
      if (filter.name) query = query.where('name', '=', filter.name);
      return query.execute();
    },

    byId(id: number): Promise<Webcam | undefined> {
      return db.selectFrom('webcams').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /**
     * The images of one local day (`yyyyMMdd`), oldest first, the days that have images, newest first, and,
     * when the day's newest picture is frozen, the first picture of the run of equal ones it ends.
     */
    async imageHistory(
      webcamId: number,
      day: string,
    ): Promise<{ images: Image[]; days: string[]; frozenSince: string | null }> {
      const images = await db
        .selectFrom('webcamImages')
        .selectAll()
        .where('webcamId', '=', webcamId)
        .where('name', '>=', `${day}0000`)
        .where('name', '<=', `${day}2359`)
        .orderBy('name')
        .execute();
      const days = await db
        .selectFrom('webcamImages')
        .select((eb) => eb.fn<string>('left', [eb.ref('name'), eb.val(8)]).as('day'))
        .where('webcamId', '=', webcamId)
        .groupBy('day')
        .orderBy('day', 'desc')
        .limit(31)
        .execute();
      return { images: images.map(toImage), days: days.map((d) => d.day), frozenSince: await frozenSince(images) };
    },

    async count(): Promise<number> {
      const { count } = await db
        .selectFrom('webcams')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      return Number(count);
    },

    /**
     * Update the camera with this id, or create it when `id` is absent, and announce it with the change;
     * undefined when the id is unknown.
     */
    async save(webcam: Omit<Webcam, 'id'> & { id?: number | undefined }): Promise<Webcam | undefined> {
      const { id, ...values } = webcam;
      return inTransaction(db, async (trx) => {
        const saved = id
          ? await trx.updateTable('webcams').set(values).where('id', '=', id).returningAll().executeTakeFirst()
          : await trx.insertInto('webcams').values(values).returningAll().executeTakeFirst();
        if (saved) await publishEvent(trx, CameraUpserted, saved);
        return saved;
      });
    },

    /** Remove a camera and announce it with the change; undefined when the id is unknown. */
    async remove(id: number): Promise<Webcam | undefined> {
      return inTransaction(db, async (trx) => {
        const removed = await trx.deleteFrom('webcams').where('id', '=', id).returningAll().executeTakeFirst();
        // The camera as it was, not only its id.
        if (removed) await publishEvent(trx, CameraDeleted, removed);
        return removed;
      });
    },

    async nameTaken(name: string, exceptId?: number): Promise<boolean> {
      let query = db.selectFrom('webcams').select('id').where('name', '=', name);
      if (exceptId) query = query.where('id', '!=', exceptId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    async insert(webcam: NewWebcam): Promise<Webcam> {
      return db.insertInto('webcams').values(webcam).returningAll().executeTakeFirstOrThrow();
    },

    /**
     * Fill an empty database with the demo cameras (pattern `<base>/<name>.jpg`) and the news; on later
     * starts re-point the cameras whose pattern holds `sourcePath` at `base`. Each camera is announced in the
     * same transaction. Returns how many cameras were seeded or re-pointed.
     */
    async seedDemo(demo: {
      cameras: readonly DemoCamera[];
      news: string;
      base: string;
      sourcePath: string;
    }): Promise<number> {
      const { cameras, news, base, sourcePath } = demo;
      return inTransaction(db, async (trx) => {
        const repository = createWebcamRepository(trx);
        if ((await repository.count()) > 0) {
          const target = sql<string>`concat(${`${base}/`}::text, name, '.jpg')`;
          const moved = await trx
            .updateTable('webcams')
            .set({ pattern: target })
            .where('pattern', 'like', `%${sourcePath}%`)
            .where('pattern', '!=', target)
            .returningAll()
            .execute();
          for (const webcam of moved) await publishEvent(trx, CameraUpserted, webcam);
          return moved.length;
        }
        for (const { lat, lng, direction, ...camera } of cameras) {
          const webcam = await repository.insert({ ...camera, pattern: `${base}/${camera.name}.jpg` });
          await publishEvent(trx, CameraUpserted, { ...webcam, position: { lat, lng, direction } });
        }
        await repository.setNews(news);
        return cameras.length;
      });
    },

    async recordImage(image: CapturedImage): Promise<void> {
      const { webcamId, name, lat, lng, direction } = image;
      // A picture announced again without score or flag (a moved position) keeps the ones it had.
      const measured = {
        ...(image.score === undefined ? {} : { score: image.score }),
        ...(image.frozen === undefined ? {} : { frozen: image.frozen }),
      };
      await db
        .insertInto('webcamImages')
        .values({ webcamId, name, lat, lng, direction, ...measured })
        .onConflict((oc) => oc.columns(['webcamId', 'name']).doUpdateSet({ lat, lng, direction, ...measured }))
        .execute();
    },

    /** The archive kept only `keep` of a camera's day (`yyyyMMdd`): the list forgets the others. */
    async thinImages(webcamId: number, day: string, keep: readonly string[]): Promise<number> {
      let query = db
        .deleteFrom('webcamImages')
        .where('webcamId', '=', webcamId)
        .where('name', '>=', `${day}0000`)
        .where('name', '<=', `${day}2359`);
      if (keep.length > 0) query = query.where('name', 'not in', [...keep]);
      return Number((await query.executeTakeFirst()).numDeletedRows);
    },

    /** The days (`yyyyMMdd`) of a month (`yyyyMM`) with pictures, and the camera's first and last day. */
    async imageDays(webcamId: number, month: string): Promise<{ days: string[]; first?: string; last?: string }> {
      const day = (eb: ExpressionBuilder<Database, 'webcamImages'>) =>
        eb.fn<string>('left', [eb.ref('name'), eb.val(8)]);
      const [days, range] = await Promise.all([
        db
          .selectFrom('webcamImages')
          .select((eb) => day(eb).as('day'))
          .where('webcamId', '=', webcamId)
          .where('name', '>=', `${month}000000`)
          .where('name', '<=', `${month}312359`)
          .groupBy('day')
          .orderBy('day')
          .execute(),
        db
          .selectFrom('webcamImages')
          .select((eb) => [eb.fn.min('name').as('first'), eb.fn.max('name').as('last')])
          .where('webcamId', '=', webcamId)
          .executeTakeFirst(),
      ]);
      return {
        days: days.map((row) => row.day),
        ...(range?.first ? { first: range.first.slice(0, 8) } : {}),
        ...(range?.last ? { last: range.last.slice(0, 8) } : {}),
      };
    },

    async news(): Promise<string> {
      const row = await db.selectFrom('news').select('text').where('id', '=', 1).executeTakeFirst();
      return row?.text ?? '';
    },

    async setNews(text: string): Promise<void> {
      await db
        .insertInto('news')
        .values({ id: 1, text })
        .onConflict((oc) => oc.column('id').doUpdateSet({ text }))
        .execute();
    },
  };
}

export type WebcamRepository = ReturnType<typeof createWebcamRepository>;
