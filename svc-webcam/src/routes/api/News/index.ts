import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NEWS_MAX_LENGTH } from '@lakecams/contracts';
import { ADMIN_ROLE, booleanTextResponse, replyTrue } from '@lakecams/service-kit';
import { Type } from 'typebox';
import { ErrorSchema } from '../../../schemas.ts';

const newsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/News/News/news',
    {
      schema: {
        summary: 'The news text shown below the header',
        response: {
          200: { description: 'The news as plain text', content: { 'text/plain': { schema: Type.String() } } },
        },
      },
    },
    async (_request, reply) => reply.type('text/plain; charset=utf-8').send(await app.webcamRepository.news()),
  );

  app.put(
    '/api/News/News/news',
    {
      onRequest: app.requireRole(ADMIN_ROLE),
      schema: {
        summary: 'Change the news text (Admin); an empty text hides the banner',
        body: Type.Object({ text: Type.String({ maxLength: NEWS_MAX_LENGTH }) }),
        response: { ...booleanTextResponse, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (request, reply) => {
      await app.webcamRepository.setNews(request.body.text.trim());
      return replyTrue(reply);
    },
  );
};

export default newsRoutes;
