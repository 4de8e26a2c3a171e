import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorBody, ErrorSchema, Id } from '@lakecams/service-kit';
import { Type } from 'typebox';

const RefererUserSchema = Type.Object({ id: Type.Integer(), userEmail: Type.String(), url: Type.String() });

const refererRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { refererUserRepository } = app;
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
      const info = await app.cameraInfo(request.query.cameraId);
      return info ?? reply.code(404).send(errorBody(404, `No image of camera ${request.query.cameraId} yet`));
    },
  );

  app.get(
    '/api/Referer/GetPagesUses/PageUser',
    { schema: { summary: 'The pages that use the service (public)', response: { 200: Type.Array(Type.String()) } } },
    async () => refererUserRepository.urls(),
  );

  app.get(
    '/api/Referer/GetRefererOfUser/ofUser',
    {
      onRequest: app.requireUser,
      schema: { summary: "The acting user's referer urls", response: { 200: Type.Array(RefererUserSchema) } },
    },
    async (request) => refererUserRepository.ofUser(request.principal?.actingUserId as string),
  );
};

export default refererRoutes;
