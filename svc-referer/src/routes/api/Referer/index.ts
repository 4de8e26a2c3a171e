import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorBody, ErrorSchema, Id, unavailable } from '@lakecams/service-kit';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../../database.ts';

const RefererUserSchema = Type.Object({ id: Type.Integer(), userEmail: Type.String(), url: Type.String() });

const refererRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db as Kysely<Database>;
  app.get(
    '/api/Referer/GetCameraInfo',
    {
      onRequest: app.requireUser,
      schema: {
        summary: "Width and height of a camera's full image",
        // PostgreSQL integer: a larger id would fail the look-up in svc-imaging, not find nothing.
        querystring: Type.Object({ cameraId: Id() }),
        response: {
          200: Type.Object({ width: Type.Integer(), height: Type.Integer() }),
          401: ErrorSchema,
          404: ErrorSchema,
          503: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const info = await app.bus
        .request<{ width: number; height: number } | null>(
          'imaging.camera.info',
          { webcamId: request.query.cameraId },
          { timeoutMs: 3000 },
        )
        .catch(unavailable('Image sizes cannot be read right now, please retry'));
      return info ?? reply.code(404).send(errorBody(404, `No image of camera ${request.query.cameraId} yet`));
    },
  );

  app.get(
    '/api/Referer/GetPagesUses/PageUser',
    { schema: { summary: 'The pages that use the service (public)', response: { 200: Type.Array(Type.String()) } } },
    async () =>
      (await db.selectFrom('refererUsers').select('url').distinct().orderBy('url').execute()).map((r) => r.url),
  );

  app.get(
    '/api/Referer/GetRefererOfUser/ofUser',
    {
      onRequest: app.requireUser,
      schema: { summary: "The acting user's referer urls", response: { 200: Type.Array(RefererUserSchema) } },
    },
    async (request) =>
      db
        .selectFrom('refererUsers')
        .select(['id', 'userEmail', 'url'])
        .where('userId', '=', request.principal?.actingUserId as string)
        .orderBy('url')
        .execute(),
  );
};

export default refererRoutes;
