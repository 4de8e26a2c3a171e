import { randomUUID } from 'node:crypto';
import { ACCESS_COOKIE, REFRESH_COOKIE, type User } from '@lakecams/contracts';
import { createSigner } from 'fast-jwt';
import type { FastifyReply } from 'fastify';
import type { Transactional, UserRow } from '../database.ts';
import { announceUser } from '../messaging.ts';
import { DEFAULTS, type IdentityOptions } from '../options.ts';
import type { IssuedRefreshToken } from '../repositories/refresh-token-repository.ts';
import { toSummary, type UserRepository } from '../repositories/user-repository.ts';

/** A user the portal makes itself (no registration): confirmed, with a password hashed by the caller. */
export type NewUser = Omit<Parameters<UserRepository['insert']>[0], 'emailConfirmed'>;

export interface Accounts {
  /** The user as the API sends it, with a fresh access token of the login `session`; sets its refresh cookie. */
  signedInUser(user: UserRow, reply: FastifyReply, session: IssuedRefreshToken): Promise<User>;
  clearRefreshCookie(reply: FastifyReply): void;
  /** Create a confirmed user with `roles` and announce them as created, in one transaction. */
  createUser(user: NewUser, roles?: readonly string[]): Promise<UserRow>;
}

export const REFRESH_COOKIE_PATH = '/api/Authenticate';

/** Users, roles, access tokens (EdDSA JWT, roles in `role`) and the refresh cookie. */
export function createAccounts(
  users: Transactional<UserRepository>,
  options: Pick<IdentityOptions, 'jwtPrivateKey' | 'accessTokenTtlSeconds' | 'refreshTokenTtlDays' | 'cookieSecure'>,
): Accounts {
  const ttlSeconds = options.accessTokenTtlSeconds ?? DEFAULTS.accessTokenTtlSeconds;
  const refreshTtlDays = options.refreshTokenTtlDays ?? DEFAULTS.refreshTokenTtlDays;
  const sign = createSigner({ key: options.jwtPrivateKey, algorithm: 'EdDSA', expiresIn: ttlSeconds * 1000 });
  const cookie = {
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: options.cookieSecure ?? false,
    path: REFRESH_COOKIE_PATH,
  };

  return {
    async signedInUser(user: UserRow, reply: FastifyReply, session: IssuedRefreshToken) {
      const roles = await users.roles(user.id);
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
    },
    createUser(user: NewUser, roles: readonly string[] = []) {
      return users.transaction(async (inTransaction, trx) => {
        const created = await inTransaction.insert({ ...user, emailConfirmed: true });
        for (const role of roles) await inTransaction.addRole(created.id, role);
        await announceUser(trx, created.id, 'created');
        return created;
      });
    },
    clearRefreshCookie(reply: FastifyReply) {
      reply.clearCookie(REFRESH_COOKIE, cookie);
      reply.clearCookie(ACCESS_COOKIE, { ...cookie, path: '/api' });
    },
  };
}
