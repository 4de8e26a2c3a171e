import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CONFIRM_REGISTRATION_RULES } from '@lakecams/contracts';
import { errorBody, FormFields, validateWith } from '@lakecams/service-kit';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../../database.ts';
import { errors } from '../../../schemas.ts';
import { sha256 } from '../../../secrets.ts';

const registerConfirmRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db as Kysely<Database>;
  app.put(
    '/api/RegisterConfirm/Confirm',
    {
      preValidation: validateWith(CONFIRM_REGISTRATION_RULES, 'query'),
      schema: {
        summary: 'Confirm the email address with the mailed token',
        querystring: FormFields(CONFIRM_REGISTRATION_RULES),
        response: { 200: Type.Boolean(), ...errors },
      },
    },
    async (request, reply) => {
      const { userEmail, token } = request.query;
      const user = await app.users.byEmail(userEmail);
      const confirmation = user
        ? await db.selectFrom('emailConfirmations').selectAll().where('userId', '=', user.id).executeTakeFirst()
        : undefined;
      if (!user || !confirmation || confirmation.tokenHash !== sha256(token) || confirmation.expiresAt < new Date()) {
        return reply.code(400).send(errorBody(400, 'This is not the token we sent you'));
      }
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ emailConfirmed: true }).where('id', '=', user.id).execute();
        await trx.deleteFrom('emailConfirmations').where('userId', '=', user.id).execute();
        await app.announceUser(trx, user.id, 'confirmed');
      });
      return true;
    },
  );
};

export default registerConfirmRoutes;
