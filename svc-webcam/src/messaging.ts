import { type ImagesThinned, SUBJECTS } from '@lakecams/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** What svc-webcam hears of the archive: svc-imaging's tiers thinned a camera's day, so does the list. */
export default fp(
  async (app: FastifyInstance) => {
    const thinned = await app.bus.consume<ImagesThinned>(
      async (message) => {
        const { webcamId, day, keep } = message.data;
        const removed = await app.webcamRepository.thinImages(webcamId, day, keep);
        message.ack();
        if (removed > 0) await app.cameraListChanged();
      },
      { durable: 'svc-webcam-image-thinning', filter: SUBJECTS.imagesThinned },
    );
    app.addHook('onClose', async () => {
      await thinned.unsubscribe();
    });
  },
  { name: 'webcam-messaging', dependencies: ['webcam-repository', 'camera-list-cache'] },
);
