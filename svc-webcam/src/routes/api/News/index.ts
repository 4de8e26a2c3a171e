import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NEWS_MAX_LENGTH } from '@lakecams/contracts';
import { ADMIN_ROLE, booleanTextResponse, replyTrue } from '@lakecams/service-kit';
import { Type } from 'typebox';
import { ErrorSchema } from '../../../schemas.ts';
import type { WebcamComposition } from '../../../composition.ts';

const newsRoutes: FastifyPluginAsyncTypebox<Pick<WebcamComposition, 'webcams'>> = async (app, { webcams }) => {
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
    async (_request, reply) => reply.type('text/plain; charset=utf-8').send(await webcams.news()),
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
      await webcams.setNews(request.body.text.trim());
      return replyTrue(reply);
    },
  );
};

export default newsRoutes;
