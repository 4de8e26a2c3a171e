import type { DurableConsumerOptions, Subscription } from '@lakecams/bus';
import type { FastifyInstance } from 'fastify';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from './database.ts';

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

/** How long an event's id is kept: a day longer than the bus keeps the event. */
const HANDLED_EVENTS_KEPT = '8 days';

/**
 * Like `consumeWithBackoff`, for events acted on once although the bus may deliver them again: each carries
 * an `eventId`, recorded in the transaction `work` gets, so a copy finds it and is skipped (events from
 * before ids were given are acted on as they come).
 */
export async function consumeOnce<T extends { eventId?: string }>(
  app: FastifyInstance,
  work: (data: T, trx: Transaction<Database>) => Promise<void>,
  options: DurableConsumerOptions,
): Promise<Subscription> {
  const db = app.db as Kysely<Database>;
  return consumeWithBackoff<T>(
    app,
    (data) =>
      db.transaction().execute(async (trx) => {
        if (typeof data.eventId === 'string') {
          // A copy being handled elsewhere waits here for the first to commit or roll back.
          const first = await trx
            .insertInto('handledEvents')
            .values({ id: data.eventId })
            .onConflict((oc) => oc.doNothing())
            .returning('id')
            .executeTakeFirst();
          if (!first) return;
          await trx
            .deleteFrom('handledEvents')
            .where('handledAt', '<', sql<Date>`now() - ${HANDLED_EVENTS_KEPT}::interval`)
            .execute();
        }
        await work(data, trx);
      }),
    options,
  );
}
