import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ADMIN_ROLE, errorBody, FormFields, validateWith } from '@lakecams/service-kit';
import { LOGIN_RULES, REFRESH_COOKIE } from '@lakecams/contracts';
import { Type } from 'typebox';
import { clientAddress, type LoginThrottle } from '../../../login-throttle.ts';
import { DUMMY_PASSWORD_HASH, verifyPassword } from '../../../passwords.ts';
import { errors, NOTHING, RolesSchema, UserSchema, UserSummarySchema } from '../../../schemas.ts';
import type { IdentityComposition } from '../../../composition.ts';

const authenticateRoutes: FastifyPluginAsyncTypebox<
  Pick<IdentityComposition, 'users' | 'refreshTokens' | 'accounts' | 'accessRevocations'> & {
    loginThrottle: LoginThrottle;
  }
> = async (app, { users, refreshTokens, accounts, accessRevocations, loginThrottle }) => {
  app.post(
    '/api/Authenticate/Authenticate',
    {
      preValidation: validateWith(LOGIN_RULES, 'body'),
      schema: {
        summary: 'Log in; sets the refresh cookie',
        body: FormFields(LOGIN_RULES),
        response: { 200: UserSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      const address = clientAddress(request);
      const waitMs = loginThrottle.waitMs(username, address);
      if (waitMs > 0) {
        const seconds = Math.ceil(waitMs / 1000);
        reply.header('retry-after', String(seconds));
        return reply.code(429).send(errorBody(429, `Too many attempts, please wait ${seconds} s`));
      }
      const user = await users.byUserName(username);
      const valid = await verifyPassword(user?.passwordHash ?? DUMMY_PASSWORD_HASH, password);
      if (!user || !valid) {
        loginThrottle.failed(username, address);
        return reply.code(401).send(errorBody(401, 'Username or password is incorrect'));
      }
      loginThrottle.succeeded(username, address);
      if (!user.emailConfirmed) {
        return reply
          .code(403)
          .send(errorBody(403, 'Please confirm your email address first (see the mail we sent you)'));
      }
      return accounts.signedInUser(user, reply, await refreshTokens.issue(user.id));
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
      const result = await refreshTokens.rotate(token);
      // A stolen token was replayed: end the login's access tokens too, as log-off does (the `sid`).
      if (result.outcome === 'reused' && result.ended) await accessRevocations.revokeAccessTokens([result.familyId]);
      if (result.outcome !== 'rotated') {
        accounts.clearRefreshCookie(reply);
        const message =
          result.outcome === 'reused' ? 'Refresh token was already used; please log in again' : 'Invalid refresh token';
        return reply.code(401).send(errorBody(401, message));
      }
      const user = await users.byId(result.userId);
      if (!user?.emailConfirmed) return reply.code(401).send(errorBody(401, 'Invalid refresh token'));
      return accounts.signedInUser(user, reply, result);
    },
  );

  app.get(
    '/api/Authenticate/LogOut/logout',
    {
      schema: {
        summary: 'Log off: revoke the refresh token family and every access token of that login, clear the cookies',
        response: { 200: NOTHING },
      },
    },
    async (request, reply) => {
      const token = request.cookies[REFRESH_COOKIE];
      // The family id is the `sid` of every access token of this login: the one of the cookie, and the
      // one of the bearer token (a caller without cookies logs off the login its token belongs to).
      const fromCookie = token ? await refreshTokens.revoke(token) : undefined;
      const fromBearer = request.principal?.sessionId;
      if (fromBearer && fromBearer !== fromCookie) await refreshTokens.revokeFamily(fromBearer);
      const sessions = [fromCookie, fromBearer].filter((id): id is string => id !== undefined);
      if (sessions.length > 0) await accessRevocations.revokeAccessTokens([...new Set(sessions)]);
      accounts.clearRefreshCookie(reply);
      return reply.type('application/octet-stream').send('');
    },
  );

  app.get(
    '/api/Authenticate/Roles/roles',
    {
      onRequest: app.requireUser,
      schema: { summary: "The acting user's roles", response: { 200: RolesSchema, ...errors } },
    },
    async (request) => users.roles(request.principal?.actingUserId as string),
  );

  app.get(
    '/api/Authenticate/AllUsers',
    {
      onRequest: app.requireRole(ADMIN_ROLE),
      schema: { summary: 'All users (Admin)', response: { 200: Type.Array(UserSummarySchema), ...errors } },
    },
    async () => (await users.all()).map(({ passwordHash: _hash, createdAt: _created, ...user }) => user),
  );
};

export default authenticateRoutes;
