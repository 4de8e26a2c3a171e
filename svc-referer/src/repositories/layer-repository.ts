import type { Layer, LayerLevel } from '@lakecams/contracts';
import { LayerChanged } from '@lakecams/contracts/messages';
import { inTransaction, publishEvent } from '@lakecams/service-kit';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../database.ts';

export interface LayerInput {
  refererUserId: number;
  cameraId: number;
  level: LayerLevel;
  cron: string;
  enabled: boolean;
}

/** A layer as stored: the wire shape plus whose page it belongs to. */
export type StoredLayer = Layer & { refererUserId: number; imageHash: string };

/** Tell svc-imaging a layer was saved or deleted, in the transaction of that change. */
async function announceLayer(trx: Transaction<Database>, stored: StoredLayer, deleted: boolean): Promise<void> {
  const { refererUserId: _owner, imageHash, ...layer } = stored;
  await publishEvent(trx, LayerChanged, { layer, imageHash, deleted });
}

/** Announce every layer of a referer user again: its url changed, or (`deleted`) it is being removed. */
export async function announceLayersOf(
  trx: Transaction<Database>,
  refererUserId: number,
  deleted: boolean,
): Promise<void> {
  for (const layer of await createLayerRepository(trx).ofRefererUser(refererUserId))
    await announceLayer(trx, layer, deleted);
}

/** Layers of referer pages; every change is announced to svc-imaging with it. */
export function createLayerRepository(db: Kysely<Database>) {
  const layers = () =>
    db
      .selectFrom('layers')
      .innerJoin('refererUsers', 'refererUsers.id', 'layers.refererUserId')
      .select([
        'layers.id',
        'layers.level',
        'layers.cron',
        'layers.enabled',
        'refererUsers.url',
        'layers.cameraId',
        'layers.refererUserId',
        'layers.imageHash',
      ]);
  const announceSaved = async (trx: Transaction<Database>, id: number) => {
    const saved = await createLayerRepository(trx).get(id);
    if (saved) await announceLayer(trx, saved, false);
  };
  return {
    list(refererUserIds: number[], cameraId: number, level?: LayerLevel): Promise<StoredLayer[]> {
      if (refererUserIds.length === 0) return Promise.resolve([]);
      let query = layers().where('layers.refererUserId', 'in', refererUserIds).where('layers.cameraId', '=', cameraId);
      if (level) query = query.where('layers.level', '=', level);
      return query.orderBy('layers.id').execute();
    },
    ofRefererUser: (refererUserId: number): Promise<StoredLayer[]> =>
      layers().where('layers.refererUserId', '=', refererUserId).execute(),
    get: (id: number): Promise<StoredLayer | undefined> => layers().where('layers.id', '=', id).executeTakeFirst(),
    image: async (id: number): Promise<Buffer | undefined> =>
      (await db.selectFrom('layers').select('image').where('id', '=', id).executeTakeFirst())?.image,
    countTimeLayers: async (cameraId: number, except?: number): Promise<number> => {
      let query = db
        .selectFrom('layers')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('cameraId', '=', cameraId)
        .where('level', '=', 'TIME');
      if (except) query = query.where('id', '!=', except);
      return Number((await query.executeTakeFirstOrThrow()).n);
    },
    async insert(input: LayerInput, image: { png: Buffer; hash: string }): Promise<number> {
      return inTransaction(db, async (trx) => {
        const row = await trx
          .insertInto('layers')
          .values({ ...input, image: image.png, imageHash: image.hash })
          .returning('id')
          .executeTakeFirstOrThrow();
        await announceSaved(trx, row.id);
        return row.id;
      });
    },
    async update(id: number, input: LayerInput, image?: { png: Buffer; hash: string }): Promise<void> {
      await inTransaction(db, async (trx) => {
        await trx
          .updateTable('layers')
          .set({ ...input, ...(image ? { image: image.png, imageHash: image.hash } : {}), updatedAt: new Date() })
          .where('id', '=', id)
          .execute();
        await announceSaved(trx, id);
      });
    },
    async remove(layer: StoredLayer): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        const result = await trx.deleteFrom('layers').where('id', '=', layer.id).executeTakeFirst();
        if (!result.numDeletedRows) return false;
        await announceLayer(trx, layer, true);
        return true;
      });
    },
  };
}

export type LayerRepository = ReturnType<typeof createLayerRepository>;
