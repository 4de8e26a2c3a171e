import { type LayerChanged, type LayerImageChunk, LAYER_IMAGE_CHUNK_BYTES, SUBJECTS } from '@lakecams/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database, LayerRow } from '../../database.ts';

/** Core message from the replica that applied a layer change, so every replica drops what it cached. */
const LAYERS_APPLIED = 'imaging.layers.applied';

declare module 'fastify' {
  interface FastifyInstance {
    /** The layers of a referer page on a camera, from memory after the first call. */
    layersOf(webcamId: number, url: string): Promise<LayerRow[]>;
    onLayersChange(listener: (webcamId: number) => void): void;
  }
}

/** Keeps svc-referer's layers and their images (durable consumer; images fetched in pieces over the bus). */
export default fp(
  async (app: FastifyInstance) => {
    const db = app.db as Kysely<Database>;
    const byCamera = new Map<number, Promise<LayerRow[]>>();
    const listeners: ((webcamId: number) => void)[] = [];
    const forget = (webcamId: number) => {
      byCamera.delete(webcamId);
      for (const listener of listeners) listener(webcamId);
    };

    app.decorate('onLayersChange', (listener: (webcamId: number) => void) => {
      listeners.push(listener);
    });
    app.decorate('layersOf', async (webcamId: number, url: string) => {
      let layers = byCamera.get(webcamId);
      if (!layers) {
        layers = db.selectFrom('layers').selectAll().where('cameraId', '=', webcamId).orderBy('id').execute();
        byCamera.set(webcamId, layers);
        layers.catch(() => byCamera.delete(webcamId));
      }
      return (await layers).filter((l) => l.url === url);
    });

    async function fetchImage(layerId: number): Promise<Buffer | null> {
      const pieces: Buffer[] = [];
      let offset = 0;
      for (;;) {
        const chunk = await app.bus.request<LayerImageChunk | null>(
          SUBJECTS.layerImage,
          { layerId, offset },
          { timeoutMs: 10_000 },
        );
        if (!chunk) return null;
        const piece = Buffer.from(chunk.data, 'base64');
        pieces.push(piece);
        offset += piece.length;
        if (offset >= chunk.total || piece.length < LAYER_IMAGE_CHUNK_BYTES) return Buffer.concat(pieces);
      }
    }

    const subscription = await app.bus.consume<LayerChanged>(
      async (message) => {
        const { layer, imageHash, deleted } = message.data;
        if (deleted) {
          await db.deleteFrom('layers').where('id', '=', layer.id).execute();
        } else {
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
          } else {
            const image = await fetchImage(layer.id);
            // Deleted since: its deletion follows as an event of its own.
            if (image) {
              await db
                .insertInto('layers')
                .values({ id: layer.id, ...meta, image, imageHash })
                .onConflict((oc) => oc.column('id').doUpdateSet({ ...meta, image, imageHash }))
                .execute();
            }
          }
        }
        await app.bus.publish(LAYERS_APPLIED, { webcamIds: [layer.cameraId] });
        message.ack();
      },
      { durable: 'svc-imaging-layers', filter: SUBJECTS.layerChanged },
    );
    const applied = await app.bus.subscribe<{ webcamIds: number[] }>(LAYERS_APPLIED, (message) => {
      for (const webcamId of message.data.webcamIds ?? []) forget(webcamId);
    });
    app.addHook('onClose', async () => {
      await subscription.unsubscribe();
      await applied.unsubscribe();
    });
  },
  { name: 'layer-store', dependencies: ['database'] },
);
