import { LAYER_IMAGE_CHUNK_BYTES } from '@lakecams/contracts';
import {
  AccessApplied,
  AccessChanged,
  BestOfChosen,
  CameraApplied,
  CameraDeleted,
  CameraInfo,
  CameraRefreshed,
  CameraUpserted,
  LayerChanged,
  LayerImage,
  LayersApplied,
  PageOwned,
} from '@lakecams/contracts/messages';
import type { Subscription } from '@lakecams/bus';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { withoutUrlLogins } from './capture/camera-login.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Tell every replica (this one too) that what a camera's delivery depends on changed. */
    announceCameraRefreshed(webcamId: number): Promise<void>;
    /** Whether the user has the referer page `url` (svc-referer answers). */
    pageOwned(userId: string, url: string): Promise<boolean>;
  }
}

/**
 * Everything svc-imaging says and hears on the bus (docs/architecture.md, "The bus"): camera, access, layer
 * and best-of changes from the other services; notices between its own replicas; the look-ups it answers
 * and asks. The events it writes (captures, failures, thinned days) leave from the capture repository's
 * transactions through the outbox.
 */
export default fp(
  async (app: FastifyInstance) => {
    const { bus } = app;
    const subscriptions: Subscription[] = [];
    const keep = (subscription: Subscription) => void subscriptions.push(subscription);
    app.addHook('onClose', async () => {
      for (const subscription of subscriptions.splice(0)) await subscription.unsubscribe();
    });

    app.decorate('announceCameraRefreshed', (webcamId: number) => bus.publish(CameraRefreshed, { webcamId }));
    app.decorate('pageOwned', (userId: string, url: string) =>
      bus.request(PageOwned, { userId, url }, { timeoutMs: 3000 }),
    );

    // Replica to replica. Listening first: a consumer below may apply the first change before a later
    // subscription exists.
    keep(await bus.subscribe(CameraRefreshed, ({ webcamId }) => app.forgetDelivery(webcamId)));
    keep(await bus.subscribe(CameraApplied, (change) => app.cameraChanged(change)));
    keep(await bus.subscribe(LayersApplied, ({ webcamIds }) => app.forgetLayers(webcamIds)));

    // Cameras from svc-webcam: one replica applies each change, every replica reschedules.
    keep(
      await bus.consume(
        [CameraUpserted, CameraDeleted],
        async (message) => {
          try {
            const camera =
              message.subject === CameraDeleted.subject
                ? await app.cameraDirectory.remove(message.data.id)
                : await app.cameraDirectory.upsert(message.data);
            message.ack();
            // The other replicas read the camera's URL from the directory: its login stays off the bus.
            if (camera)
              await bus.publish(CameraApplied, {
                camera: { ...camera, pattern: withoutUrlLogins(camera.pattern) },
                deleted: message.subject === CameraDeleted.subject,
              });
          } catch (err) {
            app.log.warn({ err, subject: message.subject }, 'camera change not applied, retrying');
            message.nak(1000);
          }
        },
        { durable: 'svc-imaging-camera-directory' },
      ),
    );

    // Qualities and bookings from svc-webcam.
    keep(
      await bus.consume(
        AccessChanged,
        async (message) => {
          await app.saveCameraAccess(message.data);
          message.ack();
          await app.announceCameraRefreshed(message.data.webcamId);
          // After the replicas were told: a level that is no longer public must not stay in the gateway's memory.
          const camera = await app.cameraDirectory.byId(message.data.webcamId);
          if (camera) await bus.publish(AccessApplied, { webcamId: camera.webcamId, camera: camera.name });
        },
        { durable: 'svc-imaging-camera-access' },
      ),
    );

    // Layers from svc-referer, their pictures fetched in pieces (bus messages stay well under 1 MB).
    const layerImage = async (layerId: number): Promise<Buffer | null> => {
      const pieces: Buffer[] = [];
      let offset = 0;
      for (;;) {
        const chunk = await bus.request(LayerImage, { layerId, offset }, { timeoutMs: 10_000 });
        if (!chunk) return null;
        const piece = Buffer.from(chunk.data, 'base64');
        pieces.push(piece);
        offset += piece.length;
        if (offset >= chunk.total || piece.length < LAYER_IMAGE_CHUNK_BYTES) return Buffer.concat(pieces);
      }
    };
    keep(
      await bus.consume(
        LayerChanged,
        async (message) => {
          await app.applyLayerChange(message.data, layerImage);
          await bus.publish(LayersApplied, { webcamIds: [message.data.layer.cameraId] });
          message.ack();
        },
        { durable: 'svc-imaging-layers' },
      ),
    );

    // An admin's best of a day, which the archive keeps forever.
    keep(
      await bus.consume(
        BestOfChosen,
        async (message) => {
          const { webcamId, day, image } = message.data;
          await app.bestOfChoices.choose(webcamId, day, image);
          message.ack();
        },
        { durable: 'svc-imaging-best-of' },
      ),
    );

    // svc-referer's GetCameraInfo: the size of a camera's full picture.
    keep(
      await bus.respond(
        CameraInfo,
        async ({ webcamId }) => {
          const latest = await app.captures.latest(webcamId);
          return latest?.width && latest.height ? { width: latest.width, height: latest.height } : null;
        },
        { queue: 'svc-imaging' },
      ),
    );
  },
  {
    name: 'imaging-messaging',
    dependencies: [
      'camera-directory',
      'camera-access',
      'layer-store',
      'delivery-state',
      'capture-repository',
      'best-of-choice-repository',
    ],
  },
);
