import type { Subscription } from '@lakecams/bus';
import { LAYER_IMAGE_CHUNK_BYTES, type PublicWebcam } from '@lakecams/contracts';
import {
  BookedCameras,
  CameraInfo,
  LayerImage,
  PageOwned,
  RefererUserLookup,
  type ReplyOf,
} from '@lakecams/contracts/messages';
import { followKnownUsers, unavailable } from '@lakecams/service-kit';
import type { FastifyInstance } from 'fastify';
import type { KnownUserRepository } from './repositories/known-user-repository.ts';
import type { LayerRepository } from './repositories/layer-repository.ts';
import type { RefererUserRepository } from './repositories/referer-user-repository.ts';

/** Other services answer within this time, or the caller gets 503 and may retry (logged). */
const REQUEST_TIMEOUT_MS = 3000;

/** What svc-referer asks other services, given to its parts by the composition (src/composition.ts). */
export interface RefererMessaging {
  /** svc-webcam's cameras booked for these referer users, all cameras for null; 503 when it does not answer. */
  bookedCameras(refererUserIds: number[] | null): Promise<PublicWebcam[]>;
  /** svc-imaging's size of a camera's full picture, null before its first capture; 503 when it does not answer. */
  cameraInfo(webcamId: number): Promise<ReplyOf<typeof CameraInfo>>;
}

/**
 * Everything svc-referer says, hears, answers and asks on the bus besides the events its repositories write
 * with their changes: look-ups of its pages and layer images for other services, svc-identity's users, and its
 * own questions to svc-webcam and svc-imaging.
 */
export async function startRefererMessaging(
  app: FastifyInstance,
  {
    refererUsers,
    layers,
    knownUsers,
  }: { refererUsers: RefererUserRepository; layers: LayerRepository; knownUsers: KnownUserRepository },
): Promise<RefererMessaging> {
  const queue = { queue: 'svc-referer' };
  const subscriptions: Subscription[] = [
    // svc-webcam looks up a referer user's page when a booking names one.
    await app.bus.respond(RefererUserLookup, ({ id }) => refererUsers.get(id), queue),
    // svc-imaging lets a page's owner preview the page's picture.
    await app.bus.respond(PageOwned, ({ userId, url }) => refererUsers.ownsPage(userId, url), queue),
    // svc-imaging fetches a layer's image in pieces when it learns of a change.
    await app.bus.respond(
      LayerImage,
      async ({ layerId, offset = 0 }) => {
        const image = await layers.image(layerId);
        if (!image) return null;
        return {
          total: image.length,
          data: image.subarray(offset, offset + LAYER_IMAGE_CHUNK_BYTES).toString('base64'),
        };
      },
      queue,
    ),
    // Users with an email, as svc-identity announces them; an Admin impersonates only those.
    await followKnownUsers(app, knownUsers, 'svc-referer-known-users'),
  ];
  app.addHook('onClose', async () => {
    for (const subscription of subscriptions) await subscription.unsubscribe();
  });

  return {
    // svc-webcam keeps the bookings.
    async bookedCameras(refererUserIds) {
      const cameras = await app.bus
        .request(BookedCameras, { refererUserIds }, { timeoutMs: REQUEST_TIMEOUT_MS })
        .catch(unavailable('Camera bookings cannot be read right now, please retry'));
      // A source URL may carry credentials: never passed on, whatever the answer held.
      return cameras.map((camera): PublicWebcam => ({ ...camera, pattern: '' }));
    },
    cameraInfo: (webcamId) =>
      app.bus
        .request(CameraInfo, { webcamId }, { timeoutMs: REQUEST_TIMEOUT_MS })
        .catch(unavailable('Image sizes cannot be read right now, please retry')),
  };
}
