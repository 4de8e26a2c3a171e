import type { DurableConsumerOptions, Subscription } from '@lakecams/bus';
import type { FastifyInstance } from 'fastify';

/** Do `work` for each durable event; a failure is retried with backoff (2 s, 4 s, … at most a minute). */
export async function consumeWithBackoff<T>(
  app: FastifyInstance,
  work: (data: T) => Promise<void>,
  options: DurableConsumerOptions,
): Promise<Subscription> {
  return app.bus.consume<T>(async (message) => {
    try {
      await work(message.data);
      message.ack();
    } catch (err) {
      app.log.warn(
        { err, attempt: message.deliveryCount, durable: options.durable },
        'event handling failed, retrying',
      );
      message.nak(Math.min(60_000, 1000 * 2 ** message.deliveryCount));
    }
  }, options);
}
