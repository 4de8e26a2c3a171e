import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import { ACCESS_COOKIE, REFRESH_COOKIE, type User } from '@lakecams/contracts';
import { createSigner } from 'fast-jwt';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { UserRow } from '../../database.ts';
import { announceUser } from '../../messaging.ts';
import { DEFAULTS, type IdentityOptions } from '../../options.ts';
import type { IssuedRefreshToken } from './refresh-token-repository.ts';
import { toSummary, type UserRepository } from './user-repository.ts';

/** A user the portal makes itself (no registration): confirmed, with a password hashed by the caller. */
export type NewUser = Omit<Parameters<UserRepository['insert']>[0], 'emailConfirmed'>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The user as the API sends it, with a fresh access token of the login `session`; sets its refresh cookie. */
    signedInUser(user: UserRow, reply: FastifyReply, session: IssuedRefreshToken): Promise<User>;
    clearRefreshCookie(reply: FastifyReply): void;
    /** Create a confirmed user with `roles` and announce them as created, in one transaction. */
    createUser(user: NewUser, roles?: readonly string[]): Promise<UserRow>;
  }
}

export const REFRESH_COOKIE_PATH = '/api/Authenticate';

/** Users, roles, access tokens (EdDSA JWT, roles in `role`) and the refresh cookie. */
export default fp(
  async (
    app: FastifyInstance,
    options: Pick<IdentityOptions, 'jwtPrivateKey' | 'accessTokenTtlSeconds' | 'refreshTokenTtlDays' | 'cookieSecure'>,
  ) => {
    const ttlSeconds = options.accessTokenTtlSeconds ?? DEFAULTS.accessTokenTtlSeconds;
    const refreshTtlDays = options.refreshTokenTtlDays ?? DEFAULTS.refreshTokenTtlDays;
    const sign = createSigner({ key: options.jwtPrivateKey, algorithm: 'EdDSA', expiresIn: ttlSeconds * 1000 });
    const cookie = {
      httpOnly: true,
      sameSite: 'strict' as const,
      secure: options.cookieSecure ?? false,
      path: REFRESH_COOKIE_PATH,
    };

    await app.register(fastifyCookie);
    app.useUserDirectory(async (id) => (await app.users.byId(id)) !== undefined);
    app.decorate('signedInUser', async (user: UserRow, reply: FastifyReply, session: IssuedRefreshToken) => {
      const roles = await app.users.roles(user.id);
      reply.setCookie(REFRESH_COOKIE, session.token, { ...cookie, maxAge: refreshTtlDays * 24 * 3600 });
      // Ids a log-off revokes: this token, and every token of the login.
      const jwtToken = sign({
        sub: user.id,
        role: roles,
        name: user.userName,
        jti: randomUUID(),
        sid: session.familyId,
      });
      reply.setCookie(ACCESS_COOKIE, jwtToken, { ...cookie, path: '/api', maxAge: ttlSeconds });
      return { ...toSummary(user), roles, jwtToken };
    });
    app.decorate('createUser', (user: NewUser, roles: readonly string[] = []) =>
      app.users.transaction(async (users, trx) => {
        const created = await users.insert({ ...user, emailConfirmed: true });
        for (const role of roles) await users.addRole(created.id, role);
        await announceUser(trx, created.id, 'created');
        return created;
      }),
    );
    app.decorate('clearRefreshCookie', (reply: FastifyReply) => {
      reply.clearCookie(REFRESH_COOKIE, cookie);
      reply.clearCookie(ACCESS_COOKIE, { ...cookie, path: '/api' });
    });
  },
  { name: 'accounts', dependencies: ['user-repository', 'refresh-token-repository'] },
);
