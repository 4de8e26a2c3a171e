import { type Bus, type ServiceBus, type TypedBus, typedBus } from '@lakecams/bus';
import { serviceInfo } from '@lakecams/contracts/messages';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import { createOutbox, registerOutboxMetrics } from '../outbox.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The bus over the message catalogue, without the durable publish: events go through
     * `publishEvent(trx, …)` and the outbox.
     */
    bus: TypedBus;
    /** Events stored but not yet handed to the bus. */
    outboxPending?: () => Promise<number>;
  }
}

/**
 * The bus as services get it: everything it has but the durable publish, which is the outbox relay's alone.
 * The durable names it consumes are noted in `durables` (name → open consumers), for the lag metric.
 */
function serviceBusOf(bus: Bus, durables: Map<string, number>): ServiceBus {
  const relayOnly = (key: string | symbol) => key === 'publishEvent';
  const consume: Bus['consume'] = async (handler, options) => {
    const subscription = await bus.consume(handler, options);
    durables.set(options.durable, (durables.get(options.durable) ?? 0) + 1);
    let open = true;
    return {
      unsubscribe: async () => {
        if (open) {
          open = false;
          const left = (durables.get(options.durable) ?? 1) - 1;
          if (left > 0) durables.set(options.durable, left);
          else durables.delete(options.durable);
        }
        await subscription.unsubscribe();
      },
    };
  };
  return new Proxy(bus, {
    get: (target, key, receiver) =>
      relayOnly(key) ? undefined : key === 'consume' ? consume : Reflect.get(target, key, receiver),
    has: (target, key) => !relayOnly(key) && Reflect.has(target, key),
  });
}

/**
 * Events waiting for each durable consumer of this service, read from the bus at scrape time. Replicas share a
 * durable and report the same count. A durable the bus cannot answer for (it is down) has no sample.
 */
function registerConsumerLag(registry: Registry, bus: Bus, durables: Map<string, number>): void {
  new Gauge({
    name: 'lakecams_bus_consumer_pending_messages',
    help: 'Events stored for a durable consumer and not yet acknowledged (undelivered or in processing)',
    labelNames: ['consumer'],
    registers: [registry],
    async collect() {
      const counts = bus.isConnected()
        ? await Promise.all(
            [...durables.keys()].map(async (consumer) => ({
              consumer,
              pending: await bus.pendingEvents(consumer).catch(() => null),
            })),
          )
        : [];
      this.reset();
      for (const { consumer, pending } of counts) if (pending !== null) this.set({ consumer }, pending);
    },
  });
}

/**
 * Decorates the app with the bus it was given; whoever created the bus closes it. A service with a
 * database relays the events its transactions wrote to the outbox there, so no event is lost while the
 * bus is down or the service stops between a commit and the relay.
 */
export const busPlugin = fp(
  async <DB>(
    app: FastifyInstance,
    options: { bus: Bus; service: string; version: string; db?: Kysely<DB>; databaseUrl?: string },
  ) => {
    const durables = new Map<string, number>();
    app.decorate('bus', typedBus(serviceBusOf(options.bus, durables), app.log));
    if (app.hasDecorator('metrics')) registerConsumerLag(app.metrics, options.bus, durables);
    if (options.db) {
      const outbox = await createOutbox(options.bus, options.db, app.log, { connectionString: options.databaseUrl });
      app.decorate('outboxPending', outbox.pending);
      if (app.hasDecorator('metrics')) registerOutboxMetrics(app.metrics, outbox.backlog);
      app.addHook('onClose', async () => outbox.close());
    }
    app.addReadinessCheck('bus', () => options.bus.isConnected());
    // Every instance answers a small look-up, so replicas can be discovered and counted over the bus.
    const info = await app.bus.respond(
      serviceInfo(options.service),
      () => ({
        service: options.service,
        version: options.version,
        pid: process.pid,
      }),
      { queue: `lakecams.${options.service}` },
    );
    app.addHook('onClose', async () => info.unsubscribe());
  },
  { name: 'bus', dependencies: ['health'] },
);
