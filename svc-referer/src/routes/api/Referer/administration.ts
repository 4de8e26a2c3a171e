import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { REFERER_RULES, SUBJECTS } from '@lakecams/contracts';
import {
  ADMIN_ROLE,
  booleanTextResponse,
  replyTrue,
  errorBody,
  Id,
  IdOrNew,
  validateWith,
  ErrorSchema,
} from '@lakecams/service-kit';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../../database.ts';
import { announceLayersOf } from '../../../plugins/app/layer-repository.ts';

const RefererUserSchema = Type.Object({ id: Type.Integer(), userEmail: Type.String(), url: Type.String() });
const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema };

/** Referer users (a user's pages that embed camera images): the calls behind the referer-user editing page. */
const refererAdministrationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db as Kysely<Database>;
  const admin = app.requireRole(ADMIN_ROLE);
  const allRefererUsers = () =>
    db.selectFrom('refererUsers').select(['id', 'userEmail', 'url']).orderBy('userEmail').orderBy('url').execute();
  const { isAdmin } = app.refererAccess;

  // Users with an email, as svc-identity announces them.
  const users = await app.bus.consume<{ id: string; userName?: string; email?: string; emailConfirmed?: boolean }>(
    async (message) => {
      const { id, userName, email, emailConfirmed = false } = message.data;
      if (userName && email) {
        await db
          .insertInto('knownUsers')
          .values({ id, userName, email, emailConfirmed })
          .onConflict((oc) => oc.column('id').doUpdateSet({ userName, email, emailConfirmed }))
          .execute();
        // A changed email follows into the referer list.
        await db.updateTable('refererUsers').set({ userEmail: email }).where('userId', '=', id).execute();
      }
      message.ack();
    },
    { durable: 'svc-referer-known-users', filter: SUBJECTS.userChanged },
  );
  app.addHook('onClose', async () => users.unsubscribe());
  // An Admin impersonates users svc-identity announced.
  app.useUserDirectory(
    async (id) =>
      (await db.selectFrom('knownUsers').select('id').where('id', '=', id).executeTakeFirst()) !== undefined,
  );

  app.get(
    '/api/Referer/GetRefererUsers',
    {
      onRequest: admin,
      schema: { summary: 'All referer users (Admin)', response: { 200: Type.Array(RefererUserSchema), ...errors } },
    },
    async () => allRefererUsers(),
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
      isAdmin(request)
        ? allRefererUsers()
        : db
            .selectFrom('refererUsers')
            .select(['id', 'userEmail', 'url'])
            .where('userId', '=', request.principal?.actingUserId as string)
            .orderBy('url')
            .execute(),
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
    async () =>
      db
        .selectFrom('knownUsers')
        .select(['id', 'userName', 'email'])
        .where('email', '!=', '')
        .orderBy('email')
        .execute(),
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
      const user = await db
        .selectFrom('knownUsers')
        .select(['id', 'email'])
        .where('email', '=', userEmail)
        .executeTakeFirst();
      if (!user) return reply.code(400).send(errorBody(400, `No user with the email ${userEmail}`));
      const values = { userId: user.id, userEmail: user.email, url };
      try {
        if (id) {
          const updated = await db.transaction().execute(async (trx) => {
            const updated = await trx.updateTable('refererUsers').set(values).where('id', '=', id).executeTakeFirst();
            // Layers are drawn for the page's url: svc-imaging must learn the new one.
            if (updated.numUpdatedRows) await announceLayersOf(trx, id, false);
            return updated;
          });
          if (!updated.numUpdatedRows) return reply.code(404).send(errorBody(404, `No referer user ${id}`));
        } else {
          await db.insertInto('refererUsers').values(values).execute();
        }
      } catch (error) {
        if ((error as { code?: string }).code === '23505') {
          return reply.code(409).send(errorBody(409, `${userEmail} has ${url} already`));
        }
        throw error;
      }
      return allRefererUsers();
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
      const removed = await db.transaction().execute(async (trx) => {
        // Its layers go with it (cascade).
        await announceLayersOf(trx, request.query.id, true);
        return trx.deleteFrom('refererUsers').where('id', '=', request.query.id).executeTakeFirst();
      });
      if (!removed.numDeletedRows) return reply.code(404).send(errorBody(404, `No referer user ${request.query.id}`));
      return replyTrue(reply);
    },
  );
};

export default refererAdministrationRoutes;
