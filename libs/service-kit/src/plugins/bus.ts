import type { Bus, ServiceBus } from '@lakecams/bus';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createOutbox } from '../outbox.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The bus without `publishEvent`: durable events go through `publishEvent(trx, …)` and the outbox. */
    bus: ServiceBus;
    /** Events stored but not yet handed to the bus. */
    outboxPending?: () => Promise<number>;
  }
}

/** The bus as services get it: everything it has but the durable publish, which is the outbox relay's alone. */
function serviceBusOf(bus: Bus): ServiceBus {
  const relayOnly = (key: string | symbol) => key === 'publishEvent';
  return new Proxy(bus, {
    get: (target, key, receiver) => (relayOnly(key) ? undefined : Reflect.get(target, key, receiver)),
    has: (target, key) => !relayOnly(key) && Reflect.has(target, key),
  });
}

/**
 * Decorates the app with the bus it was given; whoever created the bus closes it. A service with a
 * database relays the events its transactions wrote to the outbox there, so no event is lost while the
 * bus is down or the service stops between a commit and the relay.
 */
export const busPlugin = fp(
  async (app: FastifyInstance, options: { bus: Bus; service: string; version: string; databaseUrl?: string }) => {
    app.decorate('bus', serviceBusOf(options.bus));
    if (app.hasDecorator('db')) {
      const outbox = await createOutbox(options.bus, app.db, app.log, { connectionString: options.databaseUrl });
      app.decorate('outboxPending', outbox.pending);
      app.addHook('onClose', async () => outbox.close());
    }
    app.addReadinessCheck('bus', () => options.bus.isConnected());
    // Every instance answers a small look-up, so replicas can be discovered and counted over the bus.
    const info = await options.bus.respond(
      `lakecams.${options.service}.info`,
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
