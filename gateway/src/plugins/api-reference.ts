import swaggerUi from '@fastify/swagger-ui';
import { errorBody } from '@lakecams/service-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { readFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { mergedDocumentSource, type OpenApiDocument } from '../openapi.ts';
import type { ServiceTargets } from '../service-targets.ts';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/**
 * One API reference for the whole portal: the services' OpenAPI documents merged at `/api/openapi.json`,
 * and Swagger UI over it at `/api/docs` (its files come from the package, nothing from the internet).
 */
export async function apiReferencePlugin(app: FastifyInstance, options: { targets: ServiceTargets }) {
  const documentOf = mergedDocumentSource(options.targets, version);
  let latest: OpenApiDocument | null = null;
  const refresh = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      latest = await documentOf();
    } catch (error) {
      request.log.warn({ err: error }, 'API reference not available');
      return reply
        .code(503)
        .send(errorBody(503, 'The API reference cannot be put together right now: a service did not answer'));
    }
  };
  app.get('/api/openapi.json', { onRequest: refresh, schema: { hide: true } }, async () => latest);
  // The address a Fastify service uses for its own reference.
  app.get('/documentation', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/api/docs', 301));
  await app.register(async (reference) => {
    // Swagger UI reads the document from a `swagger()` decoration, which here is the merged one.
    await reference.register(
      fp(
        async (child) => {
          child.decorate('swagger', ((opts?: { yaml?: boolean }) =>
            opts?.yaml ? stringify(latest ?? {}) : (latest ?? {})) as never);
        },
        { name: '@fastify/swagger' },
      ),
    );
    await reference.register(swaggerUi, {
      routePrefix: '/api/docs',
      uiHooks: { onRequest: refresh },
      uiConfig: { deepLinking: true, docExpansion: 'list', tryItOutEnabled: false },
    });
  });
}
