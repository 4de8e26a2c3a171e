import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { REFERER_RULES } from '@lakecams/contracts';
import {
  ADMIN_ROLE,
  booleanTextResponse,
  replyTrue,
  errorBody,
  Id,
  IdOrNew,
  validateWith,
} from '@lakecams/service-kit';
import { Type } from 'typebox';
import type { RefererComposition } from '../../../composition.ts';
import { ErrorSchema, RefererUserSchema } from '../../../schemas.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema };

/** Referer users (a user's pages that embed camera images): the calls behind the referer-user editing page. */
const refererAdministrationRoutes: FastifyPluginAsyncTypebox<
  Pick<RefererComposition, 'refererUsers' | 'knownUsers' | 'access'>
> = async (app, { refererUsers, knownUsers, access }) => {
  const { isAdmin } = access;
  const admin = app.requireRole(ADMIN_ROLE);

  app.get(
    '/api/Referer/GetRefererUsers',
    {
      onRequest: admin,
      schema: { summary: 'All referer users (Admin)', response: { 200: Type.Array(RefererUserSchema), ...errors } },
    },
    async () => refererUsers.all(),
  );

  app.get(
    '/api/Referer/GetReferers',
    {
      onRequest: app.requireUser,
      schema: {
        summary: "Referer users: an Admin's all, anybody else's own",
        response: { 200: Type.Array(RefererUserSchema), ...errors },
      },
    },
    async (request) =>
      isAdmin(request) ? refererUsers.all() : refererUsers.ofUser(request.principal?.actingUserId as string),
  );

  app.get(
    '/api/Referer/GetUsers/users',
    {
      onRequest: admin,
      schema: {
        summary: 'Users that can become referer users: those with an email (Admin)',
        response: {
          200: Type.Array(Type.Object({ id: Type.String(), userName: Type.String(), email: Type.String() })),
          ...errors,
        },
      },
    },
    async () => knownUsers.withEmail(),
  );

  app.put(
    '/api/Referer/Set',
    {
      onRequest: admin,
      preValidation: validateWith(REFERER_RULES, 'body'),
      schema: {
        summary: 'Add a referer user (url of a user, by email); returns the list (Admin)',
        body: Type.Object({
          id: Type.Optional(IdOrNew()),
          url: Type.String({ maxLength: 2000 }),
          userEmail: Type.String({ maxLength: 254 }),
        }),
        response: { 200: Type.Array(RefererUserSchema), ...errors, 409: ErrorSchema },
      },
    },
    async (request, reply) => {
      const { id, url, userEmail } = request.body;
      const user = await knownUsers.byEmail(userEmail);
      if (!user) return reply.code(400).send(errorBody(400, `No user with the email ${userEmail}`));
      const values = { userId: user.id, userEmail: user.email, url };
      try {
        if (id) {
          if (!(await refererUsers.update(id, values)))
            return reply.code(404).send(errorBody(404, `No referer user ${id}`));
        } else {
          await refererUsers.insert(values);
        }
      } catch (error) {
        if ((error as { code?: string }).code === '23505') {
          return reply.code(409).send(errorBody(409, `${userEmail} has ${url} already`));
        }
        throw error;
      }
      return refererUsers.all();
    },
  );

  app.delete(
    '/api/Referer/Delete',
    {
      onRequest: admin,
      schema: {
        summary: 'Remove a referer user (Admin)',
        querystring: Type.Object({ id: Id() }),
        response: { ...booleanTextResponse, ...errors },
      },
    },
    async (request, reply) => {
      if (!(await refererUsers.remove(request.query.id)))
        return reply.code(404).send(errorBody(404, `No referer user ${request.query.id}`));
      return replyTrue(reply);
    },
  );
};

export default refererAdministrationRoutes;
