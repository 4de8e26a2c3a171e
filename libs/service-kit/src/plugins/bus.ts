import type { Bus } from '@lakecams/bus';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createOutbox } from '../outbox.ts';

declare module 'fastify' {
  interface FastifyInstance {
    bus: Bus;
    /** Events stored but not yet handed to the bus. */
    outboxPending?: () => Promise<number>;
  }
}

/**
 * Decorates the app with the bus it was given; whoever created the bus closes it. A service with a
 * database publishes its events through an outbox there, so no event is lost while the bus is down.
 */
export const busPlugin = fp(
  async (app: FastifyInstance, options: { bus: Bus; service: string; version: string }) => {
    if (app.hasDecorator('db')) {
      const outbox = await createOutbox(options.bus, app.db, app.log);
      app.decorate('bus', outbox.bus);
      app.decorate('outboxPending', outbox.pending);
      app.addHook('onClose', async () => outbox.close());
    } else {
      app.decorate('bus', options.bus);
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
