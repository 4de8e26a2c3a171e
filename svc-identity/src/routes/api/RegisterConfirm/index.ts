import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CONFIRM_REGISTRATION_RULES } from '@lakecams/contracts';
import { errorBody, FormFields, validateWith } from '@lakecams/service-kit';
import { Type } from 'typebox';
import { announceUser } from '../../../messaging.ts';
import { errors } from '../../../schemas.ts';
import { sha256 } from '../../../secrets.ts';
import type { IdentityComposition } from '../../../composition.ts';

const registerConfirmRoutes: FastifyPluginAsyncTypebox<Pick<IdentityComposition, 'users'>> = async (app, { users }) => {
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
      const user = await users.byEmail(userEmail);
      const confirmation = user ? await users.emailConfirmation(user.id) : undefined;
      if (!user || !confirmation || confirmation.tokenHash !== sha256(token) || confirmation.expiresAt < new Date()) {
        return reply.code(400).send(errorBody(400, 'This is not the token we sent you'));
      }
      await users.transaction(async (users, trx) => {
        await users.confirmRegistration(user.id);
        await announceUser(trx, user.id, 'confirmed');
      });
      return true;
    },
  );
};

export default registerConfirmRoutes;
