import { type Image, SUBJECTS } from '@lakecams/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Keeps the camera list's image metadata in step with svc-imaging's captures. */
export default fp(
  async (app: FastifyInstance) => {
    const subscription = await app.bus.consume<Image>(
      async (message) => {
        try {
          await app.webcamRepository.recordImage(message.data);
          message.ack();
          // Only now can a page that refetches the list see the image: tell open pages.
          await app.bus.publish(SUBJECTS.imageListed, message.data);
        } catch (err) {
          // 23503: the camera was deleted meanwhile; nothing to record.
          if ((err as { code?: string }).code === '23503') return message.term();
          app.log.warn({ err }, 'recording captured image failed, retrying');
          message.nak(1000);
        }
      },
      {
        durable: 'svc-webcam-image-projection',
        filter: SUBJECTS.imageCaptured,
      },
    );
    app.addHook('onClose', async () => {
      await subscription.unsubscribe();
    });
  },
  { name: 'image-projection', dependencies: ['webcam-repository', 'camera-list-cache'] },
);
