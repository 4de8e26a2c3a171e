import type { ConsumeOptions, Subscription, TypedBus } from '@lakecams/bus';
import type { EventDefinition, PayloadOf } from '@lakecams/contracts/messages';
import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from './database.ts';

/** What durable work needs: the typed bus it consumes from and the log its retries are told in. */
export interface DurableWorkContext {
  bus: TypedBus;
  log: FastifyBaseLogger;
}

/** Do `work` for each durable `event`; a failure is retried with backoff (2 s, 4 s, … at most a minute). */
export async function consumeWithBackoff<M extends EventDefinition>(
  { bus, log }: DurableWorkContext,
  event: M,
  work: (payload: NoInfer<PayloadOf<M>>) => Promise<void>,
  options: ConsumeOptions,
): Promise<Subscription> {
  return bus.consume(
    event,
    async (message) => {
      try {
        // The typed bus checked the payload against `event`; its type is lost only to the generic `M`.
        await work(message.data as PayloadOf<M>);
        message.ack();
      } catch (err) {
        log.warn({ err, attempt: message.deliveryCount, durable: options.durable }, 'event handling failed, retrying');
        message.nak(Math.min(60_000, 1000 * 2 ** message.deliveryCount));
      }
    },
    options,
  );
}

/** How long an event's id is kept: a day longer than the bus keeps the event. */
const HANDLED_EVENTS_KEPT = '8 days';

/** The `eventId` an event of svc-identity's own carries, when it has one. */
function eventIdOf(payload: unknown): string | undefined {
  return typeof payload === 'object' && payload !== null && 'eventId' in payload && typeof payload.eventId === 'string'
    ? payload.eventId
    : undefined;
}

/**
 * Like `consumeWithBackoff`, for events acted on once although the bus may deliver them again: each carries
 * an `eventId`, recorded in the transaction `work` gets, so a copy finds it and is skipped (events from
 * before ids were given are acted on as they come).
 */
export async function consumeOnce<M extends EventDefinition>(
  context: DurableWorkContext & { db: Kysely<Database> },
  event: M,
  work: (payload: NoInfer<PayloadOf<M>>, trx: Transaction<Database>) => Promise<void>,
  options: ConsumeOptions,
): Promise<Subscription> {
  return consumeWithBackoff(
    context,
    event,
    (payload) =>
      context.db.transaction().execute(async (trx) => {
        const eventId = eventIdOf(payload);
        if (eventId !== undefined) {
          // A copy being handled elsewhere waits here for the first to commit or roll back.
          const first = await trx
            .insertInto('handledEvents')
            .values({ id: eventId })
            .onConflict((oc) => oc.doNothing())
            .returning('id')
            .executeTakeFirst();
          if (!first) return;
          await trx
            .deleteFrom('handledEvents')
            .where('handledAt', '<', sql<Date>`now() - ${HANDLED_EVENTS_KEPT}::interval`)
            .execute();
        }
        await work(payload, trx);
      }),
    options,
  );
}
