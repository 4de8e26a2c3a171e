import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import { ACCESS_COOKIE, REFRESH_COOKIE, SUBJECTS, type User } from '@lakecams/contracts';
import { createSigner } from 'fast-jwt';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { publishEvent } from '@lakecams/service-kit';
import type { Kysely, Transaction } from 'kysely';
import type { Database, UserRow } from '../../database.ts';
import { DEFAULTS, type IdentityOptions } from '../../options.ts';
import { createRefreshTokens, type IssuedRefreshToken, type RefreshTokens } from './refresh-tokens.ts';
import { createUserRepository, toSummary, type UserRepository } from './user-repository.ts';

declare module 'fastify' {
  interface FastifyInstance {
    users: UserRepository;
    refreshTokens: RefreshTokens;
    /** The user as the API sends it, with a fresh access token of the login `session`; sets its refresh cookie. */
    signedInUser(user: UserRow, reply: FastifyReply, session: IssuedRefreshToken): Promise<User>;
    clearRefreshCookie(reply: FastifyReply): void;
    /** Tell other services, in the transaction of the change, who a user is now and what changed. */
    announceUser<DB>(trx: Transaction<DB>, userId: string, change: string): Promise<void>;
  }
}

export const REFRESH_COOKIE_PATH = '/api/Authenticate';

/** Users, roles, access tokens (EdDSA JWT, roles in `role`) and the refresh cookie. */
export default fp(
  async (app: FastifyInstance, options: IdentityOptions) => {
    const db = app.db as Kysely<Database>;
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
    app.decorate('users', createUserRepository(db));
    app.useUserDirectory(async (id) => (await app.users.byId(id)) !== undefined);
    app.decorate('refreshTokens', createRefreshTokens(db, refreshTtlDays));
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
    app.decorate('announceUser', async <DB>(trx: Transaction<DB>, userId: string, change: string) => {
      const user = await createUserRepository(trx as unknown as Transaction<Database>).byId(userId);
      if (!user) return;
      const { id, userName, email, emailConfirmed } = user;
      await publishEvent(trx, SUBJECTS.userChanged, { id, userName, email, emailConfirmed, change });
    });
    app.decorate('clearRefreshCookie', (reply: FastifyReply) => {
      reply.clearCookie(REFRESH_COOKIE, cookie);
      reply.clearCookie(ACCESS_COOKIE, { ...cookie, path: '/api' });
    });
  },
  { name: 'accounts', dependencies: ['database'] },
);
