import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorBody, Id } from '@lakecams/service-kit';
import { Type } from 'typebox';
import type { RefererComposition } from '../../../composition.ts';
import { ErrorSchema, RefererUserSchema } from '../../../schemas.ts';

/** What anybody asks of referer pages: the pages using the service, the caller's own, a camera's picture size. */
const refererRoutes: FastifyPluginAsyncTypebox<Pick<RefererComposition, 'refererUsers' | 'messaging'>> = async (
  app,
  { refererUsers, messaging },
) => {
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
      const info = await messaging.cameraInfo(request.query.cameraId);
      return info ?? reply.code(404).send(errorBody(404, `No image of camera ${request.query.cameraId} yet`));
    },
  );

  app.get(
    '/api/Referer/GetPagesUses/PageUser',
    { schema: { summary: 'The pages that use the service (public)', response: { 200: Type.Array(Type.String()) } } },
    async () => refererUsers.urls(),
  );

  app.get(
    '/api/Referer/GetRefererOfUser/ofUser',
    {
      onRequest: app.requireUser,
      schema: { summary: "The acting user's referer urls", response: { 200: Type.Array(RefererUserSchema) } },
    },
    async (request) => refererUsers.ofUser(request.principal?.actingUserId as string),
  );
};

export default refererRoutes;
