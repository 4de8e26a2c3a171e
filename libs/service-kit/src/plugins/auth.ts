import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ACCESS_COOKIE, IMPERSONATE_COOKIE } from '@lakecams/contracts';
import { AccessRevoked, type PayloadOf } from '@lakecams/contracts/messages';

type AccessRevocation = PayloadOf<typeof AccessRevoked>;
import { createRevokedAccess } from '../revoked-access.ts';
import { errorBody } from './errors.ts';

/** Who is calling: the verified user, and the user they act as (differs only for an impersonating Admin). */
export interface Principal {
  userId: string;
  roles: string[];
  actingUserId: string;
  /** The login (refresh token family) the access token belongs to, or its own id: what a log-off revokes. */
  sessionId?: string;
}

interface AccessTokenClaims {
  sub: string;
  role?: string | string[];
  /** Token id and session (refresh token family) id: what a log-off revokes. */
  jti?: string;
  sid?: string;
}

/** Marks the hooks requireUser and requireRole make, so the OpenAPI document can say which routes need what. */
export const ACCESS_RULE = Symbol('access rule');
type AccessHook = ((request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) & {
  [ACCESS_RULE]?: { role: string | null };
};

function withAccessRule<T extends AccessHook>(hook: T, role: string | null): T {
  hook[ACCESS_RULE] = { role };
  return hook;
}

/** The access rule a route's hooks carry: a signed-in user, a role, or none (public). */
export function accessRuleOf(hooks: unknown): { role: string | null } | null {
  for (const hook of [hooks].flat()) {
    const rule = typeof hook === 'function' ? (hook as AccessHook)[ACCESS_RULE] : undefined;
    if (rule) return rule;
  }
  return null;
}

/** Whether a user id names a user this service knows. */
export type UserDirectory = (userId: string) => Promise<boolean>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Also accept the access token from the httpOnly cookie (read-only routes loaded by the browser itself). */
    acceptsAccessCookie?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /** Why a sent access token was not accepted; public routes still answer, protected ones say 401. */
    authError: string | null;
  }
  interface FastifyInstance {
    /** A route's onRequest hook (before its body is read or validated): 401 unless a valid access token was sent. */
    requireUser(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** onRequest hook factory (before the body is read or validated): 401 when anonymous, 403 without the role. */
    requireRole(role: string): (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Where impersonated users are looked up: an Admin impersonating an unknown user gets 404. */
    useUserDirectory(directory: UserDirectory): void;
    /** Refuse these token or session ids on this replica at once (the bus tells the others). */
    revokeAccess(revocation: AccessRevocation): void;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const ADMIN_ROLE = 'Admin';

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [key, ...rest] = part.trim().split('=');
    if (key !== name) continue;
    // A malformed escape is just a bad token (verification fails), not a server error.
    try {
      return decodeURIComponent(rest.join('='));
    } catch {
      return rest.join('=');
    }
  }
  return undefined;
}

function rolesOf(claims: AccessTokenClaims): string[] {
  if (Array.isArray(claims.role)) return claims.role;
  return claims.role ? [claims.role] : [];
}

/**
 * Verifies bearer access tokens with svc-identity's public key, refuses revoked ones (log-off, followed on the
 * bus) and applies the impersonation rule: the `Impersonate` header is honoured only for a verified Admin,
 * anybody else gets 403; cookie-authenticated reads follow the impersonation cookie of an Admin alone.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, options: { publicKey?: string | undefined }) => {
    if (options.publicKey) {
      await app.register(fastifyJwt, {
        secret: {
          public: options.publicKey,
          private: 'unused-verification-only',
        },
        verify: { algorithms: ['EdDSA', 'ES256', 'RS256'] },
      });
    }
    app.decorateRequest('principal', null);
    app.decorateRequest('authError', null);

    const revoked = createRevokedAccess();
    const revoke = ({ ids, expiresAt }: AccessRevocation) => revoked.revoke(ids, Date.parse(expiresAt));
    app.decorate('revokeAccess', revoke);
    if (app.hasDecorator('bus')) {
      // Every replica reads every revocation, the still valid ones of the past included, before it serves.
      const following = await app.bus.follow(AccessRevoked, revoke);
      app.addHook('onClose', async () => following.unsubscribe());
    }
    let userDirectory: UserDirectory | undefined;
    app.decorate('useUserDirectory', (directory: UserDirectory) => {
      userDirectory = directory;
    });
    const isKnownUser = async (userId: string) => !userDirectory || (await userDirectory(userId));

    app.addHook('onRequest', async (request, reply) => {
      const authorization = request.headers.authorization;
      const impersonate = request.headers.impersonate;
      const cookieToken =
        !authorization && request.routeOptions.config?.acceptsAccessCookie
          ? cookieValue(request.headers.cookie, ACCESS_COOKIE)
          : undefined;
      if (authorization?.startsWith('Bearer ') || cookieToken) {
        try {
          if (!options.publicKey) throw new Error('no verification key');
          const claims = cookieToken
            ? app.jwt.verify<AccessTokenClaims>(cookieToken)
            : await request.jwtVerify<AccessTokenClaims>();
          if (revoked.isRevoked([claims.jti, claims.sid])) {
            request.authError = 'The access token was revoked (logged off)';
          } else {
            const sessionId = claims.sid ?? claims.jti;
            request.principal = {
              userId: claims.sub,
              roles: rolesOf(claims),
              actingUserId: claims.sub,
              ...(sessionId ? { sessionId } : {}),
            };
          }
        } catch {
          // A stale token must not block public calls such as the token refresh itself.
          request.authError = 'Invalid or expired access token';
        }
      }
      if (typeof impersonate === 'string' && impersonate !== '') {
        // An admin whose token expired gets 401 (refresh and retry), not 403.
        if (request.authError) return reply.code(401).send(errorBody(401, request.authError));
        if (!request.principal?.roles.includes(ADMIN_ROLE)) {
          return reply.code(403).send(errorBody(403, 'Only administrators may impersonate'));
        }
        if (!UUID.test(impersonate)) return reply.code(400).send(errorBody(400, 'Impersonate must be a user id'));
        const actingUserId = impersonate.toLowerCase();
        if (!(await isKnownUser(actingUserId))) return reply.code(404).send(errorBody(404, 'No such user'));
        request.principal.actingUserId = actingUserId;
        return;
      }
      // Pictures cannot carry a header: an Admin's impersonation comes as a cookie, anybody else's is ignored.
      const cookieActing = cookieToken ? cookieValue(request.headers.cookie, IMPERSONATE_COOKIE)?.toLowerCase() : '';
      if (cookieActing && request.principal?.roles.includes(ADMIN_ROLE) && UUID.test(cookieActing)) {
        if (await isKnownUser(cookieActing)) request.principal.actingUserId = cookieActing;
      }
    });

    const unauthenticated = (request: FastifyRequest, reply: FastifyReply) =>
      reply.code(401).send(errorBody(401, request.authError ?? 'Authentication required'));
    app.decorate(
      'requireUser',
      withAccessRule(async (request: FastifyRequest, reply: FastifyReply) => {
        if (!request.principal) return unauthenticated(request, reply);
      }, null),
    );
    app.decorate('requireRole', (role: string) =>
      withAccessRule(async (request: FastifyRequest, reply: FastifyReply) => {
        if (!request.principal) return unauthenticated(request, reply);
        if (!request.principal.roles.includes(role))
          return reply.code(403).send(errorBody(403, `Role ${role} required`));
      }, role),
    );
  },
  { name: 'auth' },
);
