import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FORGOT_PASSWORD_RULES, PROFILE_RULES, REGISTER_RULES, RESET_PASSWORD_RULES } from '@lakecams/contracts';
import { booleanTextResponse, errorBody, FormFields, replyTrue, validateWith } from '@lakecams/service-kit';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { announceUser, queueMail } from '../../../messaging.ts';
import { DEFAULTS } from '../../../options.ts';
import { hashPassword } from '../../../passwords.ts';
import { toSummary } from '../../../repositories/user-repository.ts';
import { CaptchaQuery, ErrorSchema, errors, RolesSchema, UserSummarySchema } from '../../../schemas.ts';
import { randomToken, sha256 } from '../../../secrets.ts';
import type { IdentityComposition } from '../../../composition.ts';

export interface RegisterRoutesOptions
  extends Pick<
    IdentityComposition,
    'users' | 'passwordResets' | 'refreshTokens' | 'accessRevocations' | 'captcha' | 'messaging'
  > {
  rateLimit: { max: number; timeWindow: number };
  publicUrl: () => string;
}

/** The profile update (`ProfileUpdate`) carries `phone`; it stands for `phoneNumber` when that is absent. */
async function phoneAlias(request: FastifyRequest): Promise<void> {
  const body = request.body as Record<string, unknown> | null;
  if (body && typeof body === 'object' && body.phoneNumber === undefined && body.phone !== undefined) {
    body.phoneNumber = body.phone;
  }
}

const registerRoutes: FastifyPluginAsyncTypebox<RegisterRoutesOptions> = async (app, options) => {
  const { users, passwordResets, refreshTokens, accessRevocations, captcha, messaging } = options;
  app.post(
    '/api/Register/Register',
    {
      config: { rateLimit: options.rateLimit },
      preValidation: validateWith(REGISTER_RULES, 'body'),
      preHandler: captcha.requireCaptcha('register'),
      schema: {
        summary: 'Register; sends the confirmation mail',
        querystring: CaptchaQuery,
        body: FormFields(REGISTER_RULES),
        response: { ...booleanTextResponse, ...errors, 409: ErrorSchema },
      },
    },
    async (request, reply) => {
      const model = request.body;
      // 409 as when two registrations race and the database refuses the second.
      if (await users.byUserName(model.username))
        return reply.code(409).send(errorBody(409, 'This username is already taken'));
      if (await users.byEmail(model.email)) {
        return reply.code(409).send(errorBody(409, 'This email address is already registered'));
      }
      const token = randomToken();
      const passwordHash = await hashPassword(model.password);
      // The account, its confirmation mail and its announcement commit together.
      await users.transaction(async (users, trx) => {
        const user = await users.insert({
          userName: model.username,
          email: model.email,
          firstName: model.firstname,
          lastName: model.lastname,
          phoneNumber: model.phoneNumber,
          passwordHash,
        });
        await users.addEmailConfirmation(user.id, {
          tokenHash: sha256(token),
          expiresAt: new Date(Date.now() + DEFAULTS.confirmationTtlHours * 3600_000),
        });
        const link = `${options.publicUrl()}/confirmRegistration?email=${encodeURIComponent(user.email)}&token=${token}`;
        await queueMail(trx, {
          to: user.email,
          subject: 'Seecam Zürichsee: Registrierung bestätigen',
          text: `Hallo ${user.firstName}\n\nBitte bestätigen Sie Ihre Registrierung:\n${link}\n\nOder geben Sie auf der Seite "Registrierung bestätigen" diesen Token ein:\n${token}\n\nDer Link ist ${DEFAULTS.confirmationTtlHours} Stunden gültig.\n`,
        });
        await announceUser(trx, user.id, 'registered');
      });
      return replyTrue(reply);
    },
  );

  app.post(
    '/api/Register/Update',
    {
      onRequest: app.requireUser,
      preValidation: [phoneAlias, validateWith(PROFILE_RULES, 'body')],
      schema: {
        summary: "Update the acting user's profile",
        body: Type.Object({
          ...FormFields(PROFILE_RULES).properties,
          phone: Type.Optional(
            Type.String({ maxLength: 254, description: 'Alias of phoneNumber, used when it is absent' }),
          ),
        }),
        response: { 200: UserSummarySchema, ...errors },
      },
    },
    async (request, reply) => {
      const { firstName, lastName, phoneNumber } = request.body;
      const user = await users.transaction(async (users, trx) => {
        const user = await users.updateProfile(request.principal?.actingUserId as string, {
          firstName,
          lastName,
          phoneNumber,
        });
        if (user) await announceUser(trx, user.id, 'profile');
        return user;
      });
      if (!user) return reply.code(404).send(errorBody(404, 'User not found'));
      return toSummary(user);
    },
  );

  app.post(
    '/api/Register/RecoverPassword',
    {
      config: { rateLimit: options.rateLimit },
      preValidation: validateWith(FORGOT_PASSWORD_RULES, 'query'),
      schema: {
        summary: 'Mail a password reset code (same answer whether or not the email exists)',
        querystring: FormFields(FORGOT_PASSWORD_RULES),
        response: { ...booleanTextResponse, ...errors },
      },
    },
    async (request, reply) => {
      await messaging.requestPasswordRecovery(request.query.email);
      return replyTrue(reply);
    },
  );

  app.post(
    '/api/Register/ResetPassword',
    {
      config: { rateLimit: options.rateLimit },
      preValidation: validateWith(RESET_PASSWORD_RULES, 'body'),
      schema: {
        summary: 'Set a new password with the mailed code',
        body: FormFields(RESET_PASSWORD_RULES),
        response: { ...booleanTextResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { email, username, password, token } = request.body;
      const invalid = () => reply.code(400).send(errorBody(400, 'The code is invalid or has expired'));
      const user = await users.byEmail(email);
      if (!user || user.userName.toLowerCase() !== username.toLowerCase()) return invalid();
      const reset = await passwordResets.of(user.id);
      if (!reset || reset.expiresAt < new Date() || reset.failedAttempts >= DEFAULTS.resetCodeMaxAttempts)
        return invalid();
      if (reset.codeHash !== sha256(token.trim().toUpperCase())) {
        await passwordResets.countFailedAttempt(user.id);
        return invalid();
      }
      await users.setPasswordHash(user.id, await hashPassword(password));
      await passwordResets.remove(user.id);
      // A new password ends every existing session, its access tokens included (docs/product.md §8.3).
      await accessRevocations.revokeAccessTokens(await refreshTokens.revokeAllOf(user.id));
      return replyTrue(reply);
    },
  );

  app.get(
    '/api/Register/Roles',
    {
      onRequest: app.requireUser,
      schema: { summary: "The acting user's roles", response: { 200: RolesSchema, ...errors } },
    },
    async (request) => users.roles(request.principal?.actingUserId as string),
  );
};

export default registerRoutes;
