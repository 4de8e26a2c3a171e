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
import fp from 'fastify-plugin';

/** Other services answer within this time, or the caller gets 503 and may retry (logged). */
const REQUEST_TIMEOUT_MS = 3000;

declare module 'fastify' {
  interface FastifyInstance {
    /** svc-webcam's cameras booked for these referer users, all cameras for null; 503 when it does not answer. */
    bookedCameras(refererUserIds: number[] | null): Promise<PublicWebcam[]>;
    /** svc-imaging's size of a camera's full picture, null before its first capture; 503 when it does not answer. */
    cameraInfo(webcamId: number): Promise<ReplyOf<typeof CameraInfo>>;
  }
}

/** Everything svc-referer says, hears, answers and asks on the bus. */
export default fp(
  async (app: FastifyInstance) => {
    const { refererUserRepository, layerRepository, knownUserRepository } = app;
    const queue = { queue: 'svc-referer' };

    const subscriptions = [
      // svc-webcam looks up a referer user's page when a booking names one.
      await app.bus.respond(RefererUserLookup, ({ id }) => refererUserRepository.get(id), queue),
      // svc-imaging lets a page's owner preview the page's picture.
      await app.bus.respond(PageOwned, ({ userId, url }) => refererUserRepository.ownsPage(userId, url), queue),
      // svc-imaging fetches a layer's image in pieces when it learns of a change.
      await app.bus.respond(
        LayerImage,
        async ({ layerId, offset = 0 }) => {
          const image = await layerRepository.image(layerId);
          if (!image) return null;
          return {
            total: image.length,
            data: image.subarray(offset, offset + LAYER_IMAGE_CHUNK_BYTES).toString('base64'),
          };
        },
        queue,
      ),
      // Users with an email, as svc-identity announces them; an Admin impersonates only those.
      await followKnownUsers(app, knownUserRepository, 'svc-referer-known-users'),
    ];
    app.addHook('onClose', async () => {
      for (const subscription of subscriptions) await subscription.unsubscribe();
    });

    // svc-webcam keeps the bookings.
    app.decorate('bookedCameras', async (refererUserIds: number[] | null) => {
      const cameras = await app.bus
        .request(BookedCameras, { refererUserIds }, { timeoutMs: REQUEST_TIMEOUT_MS })
        .catch(unavailable('Camera bookings cannot be read right now, please retry'));
      // A source URL may carry credentials: never passed on, whatever the answer held.
      return cameras.map((camera): PublicWebcam => ({ ...camera, pattern: '' }));
    });
    app.decorate('cameraInfo', (webcamId: number) =>
      app.bus
        .request(CameraInfo, { webcamId }, { timeoutMs: REQUEST_TIMEOUT_MS })
        .catch(unavailable('Image sizes cannot be read right now, please retry')),
    );
  },
  {
    name: 'referer-messaging',
    dependencies: ['bus', 'referer-user-repository', 'layer-repository', 'known-user-repository'],
  },
);
