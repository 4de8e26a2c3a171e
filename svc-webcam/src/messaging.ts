import type { Subscription } from '@lakecams/bus';
import {
  BookedCameras,
  CameraListChanged,
  ImageCaptured,
  ImageListed,
  ImagesThinned,
  type ReplyOf,
  RefererUserLookup,
} from '@lakecams/contracts/messages';
import { followKnownUsers, type KnownUserStore } from '@lakecams/service-kit';
import type { FastifyInstance } from 'fastify';
import type { CameraListCache } from './camera-list-cache.ts';
import { presentCamera } from './camera-presentation.ts';
import type { AccessRepository } from './repositories/access-repository.ts';
import type { WebcamRepository } from './repositories/webcam-repository.ts';

/** How long a route waits for svc-referer to name a referer user. */
const REFERER_LOOKUP_TIMEOUT_MS = 3000;

/** What routes send over the bus, given to them by the composition (src/composition.ts). */
export interface WebcamMessaging {
  /** Forget the camera list here and tell every other replica to forget theirs. */
  cameraListChanged(): Promise<void>;
  /** svc-referer's referer users (pages), asked over the bus. */
  refererUsers: {
    /** The referer user with this id, null when unknown; rejects when svc-referer does not answer. */
    lookup(id: number): Promise<ReplyOf<typeof RefererUserLookup>>;
  };
}

/**
 * Everything svc-webcam sends and hears on the bus besides the events its repositories write with their
 * changes: svc-imaging's captures and thinned days, svc-identity's users, svc-referer's look-ups both ways,
 * and the notices that keep open pages and every replica's camera list current.
 */
export async function startWebcamMessaging(
  app: FastifyInstance,
  {
    webcams,
    access,
    knownUsers,
    cameraList,
  }: { webcams: WebcamRepository; access: AccessRepository; knownUsers: KnownUserStore; cameraList: CameraListCache },
): Promise<WebcamMessaging> {
  const subscriptions: Subscription[] = [];
  app.addHook('onClose', async () => {
    for (const subscription of subscriptions) await subscription.unsubscribe();
  });

  const messaging: WebcamMessaging = {
    async cameraListChanged() {
      cameraList.forget();
      await app.bus.publish(CameraListChanged, {});
    },
    refererUsers: {
      lookup: (id: number) => app.bus.request(RefererUserLookup, { id }, { timeoutMs: REFERER_LOOKUP_TIMEOUT_MS }),
    },
  };

  // Another replica changed the list, or a new picture is on it.
  const forget = () => cameraList.forget();
  subscriptions.push(await app.bus.subscribe(ImageListed, forget));
  subscriptions.push(await app.bus.subscribe(CameraListChanged, forget));

  // The camera list's image metadata follows svc-imaging's captures.
  subscriptions.push(
    await app.bus.consume(
      ImageCaptured,
      async (message) => {
        try {
          await webcams.recordImage(message.data);
          message.ack();
          // Only now can a page that refetches the list see the image: tell open pages.
          await app.bus.publish(ImageListed, message.data);
        } catch (err) {
          // 23503: the camera was deleted meanwhile; nothing to record.
          if ((err as { code?: string }).code === '23503') return message.term();
          app.log.warn({ err }, 'recording captured image failed, retrying');
          message.nak(1000);
        }
      },
      { durable: 'svc-webcam-image-projection' },
    ),
  );

  // svc-imaging's archive tiers thinned a camera's day, so does the list.
  subscriptions.push(
    await app.bus.consume(
      ImagesThinned,
      async (message) => {
        const { webcamId, day, keep } = message.data;
        const removed = await webcams.thinImages(webcamId, day, keep);
        message.ack();
        if (removed > 0) await messaging.cameraListChanged();
      },
      { durable: 'svc-webcam-image-thinning' },
    ),
  );

  // Names and emails of users as svc-identity announces them; an Admin impersonates only those.
  subscriptions.push(await followKnownUsers(app, knownUsers, 'svc-webcam-known-users'));

  // svc-referer asks which cameras a referer user may set layers on; it gets them as the public sees them.
  subscriptions.push(
    await app.bus.respond(
      BookedCameras,
      async ({ refererUserIds }) =>
        (await access.bookedCameras(refererUserIds)).map((camera) => presentCamera(camera, null)),
      { queue: 'svc-webcam' },
    ),
  );
  return messaging;
}
