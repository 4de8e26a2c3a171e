import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ADMIN_ROLE, errorBody, validateWith } from '@lakecams/service-kit';
import { LOGIN_RULES, REFRESH_COOKIE } from '@lakecams/contracts';
import { Type } from 'typebox';
import { DUMMY_PASSWORD_HASH, verifyPassword } from '../../../passwords.ts';
import { errors, RolesSchema, UserSchema, UserSummarySchema } from '../../../schemas.ts';

const authenticateRoutes: FastifyPluginAsyncTypebox<{ rateLimit: { max: number; timeWindow: number } }> = async (
  app,
  options,
) => {
  app.post(
    '/api/Authenticate/Authenticate',
    {
      config: { rateLimit: options.rateLimit },
      preValidation: validateWith(LOGIN_RULES, 'body'),
      schema: {
        summary: 'Log in; sets the refresh cookie',
        body: Type.Object({ username: Type.String(), password: Type.String() }),
        response: { 200: UserSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      const user = await app.users.byUserName(username);
      const valid = await verifyPassword(user?.passwordHash ?? DUMMY_PASSWORD_HASH, password);
      if (!user || !valid) return reply.code(401).send(errorBody(401, 'Username or password is incorrect'));
      if (!user.emailConfirmed) {
        return reply
          .code(403)
          .send(errorBody(403, 'Please confirm your email address first (see the mail we sent you)'));
      }
      return app.signedInUser(user, reply, await app.refreshTokens.issue(user.id));
    },
  );

  app.post(
    '/api/Authenticate/RefreshToken',
    {
      schema: {
        summary: 'Rotate the refresh cookie and get a fresh access token',
        response: { 200: UserSchema, ...errors },
      },
    },
    async (request, reply) => {
      const token = request.cookies[REFRESH_COOKIE];
      if (!token) return reply.code(401).send(errorBody(401, 'No refresh token'));
      const result = await app.refreshTokens.rotate(token);
      if (result.outcome !== 'rotated') {
        app.clearRefreshCookie(reply);
        const message =
          result.outcome === 'reused' ? 'Refresh token was already used; please log in again' : 'Invalid refresh token';
        return reply.code(401).send(errorBody(401, message));
      }
      const user = await app.users.byId(result.userId);
      if (!user?.emailConfirmed) return reply.code(401).send(errorBody(401, 'Invalid refresh token'));
      return app.signedInUser(user, reply, result.token);
    },
  );

  app.get(
    '/api/Authenticate/LogOut/logout',
    { schema: { summary: 'Revoke the refresh token family and clear the cookie' } },
    async (request, reply) => {
      const token = request.cookies[REFRESH_COOKIE];
      if (token) await app.refreshTokens.revoke(token);
      app.clearRefreshCookie(reply);
      return reply.type('application/octet-stream').send('');
    },
  );

  app.get(
    '/api/Authenticate/Roles/roles',
    {
      preHandler: app.requireUser,
      schema: { summary: "The acting user's roles", response: { 200: RolesSchema, ...errors } },
    },
    async (request) => app.users.roles(request.principal?.actingUserId as string),
  );

  app.get(
    '/api/Authenticate/AllUsers',
    {
      preHandler: app.requireRole(ADMIN_ROLE),
      schema: { summary: 'All users (Admin)', response: { 200: Type.Array(UserSummarySchema), ...errors } },
    },
    async () => (await app.users.all()).map(({ passwordHash: _hash, createdAt: _created, ...user }) => user),
  );
};

export default authenticateRoutes;
