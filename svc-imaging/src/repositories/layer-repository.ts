import type { LayerChanged, PayloadOf } from '@lakecams/contracts/messages';
import type { Kysely } from 'kysely';
import type { Database, LayerRow } from '../database.ts';

/** The `layers` table: svc-referer's layers with their pictures, and this replica's memory of them. */
export function createLayerRepository(db: Kysely<Database>) {
  const byCamera = new Map<number, Promise<LayerRow[]>>();
  return {
    /** The layers of a referer page on a camera, from memory after the first call. */
    async of(webcamId: number, url: string): Promise<LayerRow[]> {
      let layers = byCamera.get(webcamId);
      if (!layers) {
        layers = db.selectFrom('layers').selectAll().where('cameraId', '=', webcamId).orderBy('id').execute();
        byCamera.set(webcamId, layers);
        layers.catch(() => byCamera.delete(webcamId));
      }
      return (await layers).filter((l) => l.url === url);
    },
    /** Some replica stored a change of these cameras' layers: forget what this replica holds of them. */
    forget(webcamIds: number[]): void {
      for (const webcamId of webcamIds) byCamera.delete(webcamId);
    },
    /**
     * Store a layer change from svc-referer; `fetchImage` brings the layer's picture when its hash changed
     * (null: the layer is gone meanwhile, and its deletion follows as an event of its own).
     */
    async apply(
      { layer, imageHash, deleted }: PayloadOf<typeof LayerChanged>,
      fetchImage: (layerId: number) => Promise<Buffer | null>,
    ): Promise<void> {
      if (deleted) {
        await db.deleteFrom('layers').where('id', '=', layer.id).execute();
        return;
      }
      const known = await db.selectFrom('layers').select('imageHash').where('id', '=', layer.id).executeTakeFirst();
      const meta = {
        url: layer.url,
        cameraId: layer.cameraId,
        level: layer.level,
        cron: layer.cron,
        enabled: layer.enabled,
      };
      if (known?.imageHash === imageHash) {
        await db.updateTable('layers').set(meta).where('id', '=', layer.id).execute();
        return;
      }
      const image = await fetchImage(layer.id);
      if (!image) return;
      await db
        .insertInto('layers')
        .values({ id: layer.id, ...meta, image, imageHash })
        .onConflict((oc) => oc.column('id').doUpdateSet({ ...meta, image, imageHash }))
        .execute();
    },
  };
}

export type LayerRepository = ReturnType<typeof createLayerRepository>;
