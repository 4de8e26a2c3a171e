import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** OpenAPI document of the service's routes at `/documentation/json`. */
export const swaggerPlugin = fp(
  async (app: FastifyInstance, options: { service: string; version: string }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: `lakecams ${options.service}`,
          version: options.version,
        },
      },
    });
    app.get('/documentation/json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'swagger' },
);
