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
import { withoutUrlLogins } from './capture/camera-login.ts';
import type { BestOfChoiceRepository } from './repositories/best-of-choice-repository.ts';
import type { CameraAccessRepository } from './repositories/camera-access-repository.ts';
import type { CameraChange, CameraDirectory } from './repositories/camera-directory-repository.ts';
import type { CaptureQueryRepository } from './repositories/capture-query-repository.ts';
import type { LayerRepository } from './repositories/layer-repository.ts';

/** What svc-imaging sends and asks on the bus, given to its parts by the composition (src/composition.ts). */
export interface ImagingMessaging {
  /** Tell the other replicas that what a camera's delivery depends on changed (this one forgets it directly). */
  tellReplicasCameraRefreshed(webcamId: number): Promise<void>;
  /** Whether the user has the referer page `url` (svc-referer answers). */
  pageOwned(userId: string, url: string): Promise<boolean>;
}

/** What svc-imaging does with what it hears. */
export interface ImagingListeners {
  cameraDirectory: CameraDirectory;
  cameraAccess: CameraAccessRepository;
  layers: LayerRepository;
  bestOfChoices: BestOfChoiceRepository;
  captures: CaptureQueryRepository;
  /** A camera's delivery changed on some replica: forget what this replica holds of it. */
  forgetDelivery(webcamId: number): Promise<void>;
  /** A camera's delivery changed here: forget it here and tell the other replicas. */
  cameraRefreshed(webcamId: number): Promise<void>;
  /** Some replica applied a camera change: reschedule and forget. */
  cameraChanged(change: CameraChange): Promise<void>;
  /** Some replica stored a change of these cameras' layers. */
  layersChanged(webcamIds: number[]): void;
}

/** The sending half, built before the parts that send (nothing is heard until `startImagingMessaging`). */
export function createImagingMessaging(app: FastifyInstance): ImagingMessaging {
  const { bus } = app;
  return {
    tellReplicasCameraRefreshed: (webcamId) => bus.publish(CameraRefreshed, { webcamId }),
    pageOwned: (userId, url) => bus.request(PageOwned, { userId, url }, { timeoutMs: 3000 }),
  };
}

/**
 * Everything svc-imaging hears and answers on the bus (docs/architecture.md, "The bus"): camera, access,
 * layer and best-of changes from the other services; notices between its own replicas; the look-ups it
 * answers. The events it writes (captures, failures, thinned days) leave from the capture repository's
 * transactions through the outbox.
 */
export async function startImagingMessaging(app: FastifyInstance, on: ImagingListeners): Promise<void> {
  const { bus } = app;
  const subscriptions: Subscription[] = [];
  const keep = (subscription: Subscription) => void subscriptions.push(subscription);
  app.addHook('onClose', async () => {
    for (const subscription of subscriptions.splice(0)) await subscription.unsubscribe();
  });

  // Replica to replica. Listening first: a consumer below may apply the first change before a later
  // subscription exists. This replica hears its own notices too, and forgets once more.
  keep(await bus.subscribe(CameraRefreshed, ({ webcamId }) => on.forgetDelivery(webcamId)));
  keep(await bus.subscribe(CameraApplied, (change) => on.cameraChanged(change)));
  keep(await bus.subscribe(LayersApplied, ({ webcamIds }) => on.layersChanged(webcamIds)));

  // Cameras from svc-webcam: one replica applies each change, every replica reschedules.
  keep(
    await bus.consume(
      [CameraUpserted, CameraDeleted],
      async (message) => {
        try {
          const camera =
            message.subject === CameraDeleted.subject
              ? await on.cameraDirectory.remove(message.data.id)
              : await on.cameraDirectory.upsert(message.data);
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
        await on.cameraAccess.save(message.data);
        message.ack();
        await on.cameraRefreshed(message.data.webcamId);
        // After the replicas were told: a level that is no longer public must not stay in the gateway's memory.
        const camera = await on.cameraDirectory.byId(message.data.webcamId);
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
        await on.layers.apply(message.data, layerImage);
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
        await on.bestOfChoices.choose(webcamId, day, image);
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
        const latest = await on.captures.latest(webcamId);
        return latest?.width && latest.height ? { width: latest.width, height: latest.height } : null;
      },
      { queue: 'svc-imaging' },
    ),
  );
}
