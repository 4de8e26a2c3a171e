import type { Bus } from '@lakecams/bus';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    bus: Bus;
  }
}

/** Decorates the app with the bus it was given; whoever created the bus closes it. */
export const busPlugin = fp(
  async (app: FastifyInstance, options: { bus: Bus; service: string; version: string }) => {
    app.decorate('bus', options.bus);
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
