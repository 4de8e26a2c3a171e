import fastifyCookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { type AccessRevocations, createAccessRevocations } from './accounts/access-revocation.ts';
import { type Accounts, createAccounts } from './accounts/accounts.ts';
import { ensureFirstAdmin } from './accounts/first-admin.ts';
import { createPasswordRecovery, type PasswordRecovery } from './accounts/password-recovery.ts';
import { type Captcha, createCaptcha } from './captcha.ts';
import { type Database, type Transactional, transactional } from './database.ts';
import { clientAddress, createLoginThrottle, loginLimits } from './login-throttle.ts';
import { createMailer, type Mailer } from './mailer.ts';
import { type IdentityMessaging, startIdentityMessaging } from './messaging.ts';
import { DEFAULTS, type IdentityOptions } from './options.ts';
import { type CodeRepository, createCodeRepository } from './repositories/code-repository.ts';
import {
  createPasswordResetRepository,
  type PasswordResetRepository,
} from './repositories/password-reset-repository.ts';
import { createRefreshTokens, type RefreshTokens } from './repositories/refresh-token-repository.ts';
import { createUserRepository, type UserRepository } from './repositories/user-repository.ts';
import authenticateRoutes from './routes/api/Authenticate/index.ts';
import captchaRoutes from './routes/api/Captcha/index.ts';
import codeRoutes from './routes/api/Code/index.ts';
import contactRoutes from './routes/api/Contact/index.ts';
import registerRoutes from './routes/api/Register/index.ts';
import registerConfirmRoutes from './routes/api/RegisterConfirm/index.ts';

/** What svc-identity is made of, built once per instance; routes get the parts they use as parameters. */
export interface IdentityComposition {
  users: Transactional<UserRepository>;
  codes: Transactional<CodeRepository>;
  passwordResets: PasswordResetRepository;
  refreshTokens: RefreshTokens;
  accounts: Accounts;
  accessRevocations: AccessRevocations;
  mailer: Mailer;
  captcha: Captcha;
  passwordRecovery: PasswordRecovery;
  messaging: IdentityMessaging;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * svc-identity's users on the app, for a browser test that adds a user to the embedded portal
     * (e2e/admin.e2e.test.ts); the service's own code takes them from its composition.
     */
    users: Transactional<UserRepository>;
  }
}

/**
 * svc-identity's composition root: repositories on the service's database, then accounts and tokens,
 * revocations, the mailer, the captcha and password recovery, then what the service hears and says on the bus,
 * then the first administrator and the routes. The app brings only what the service kit decorates it with: the
 * bus, metrics, the caller (`request.principal`, `revokeAccess`, `useUserDirectory`) and the database's
 * readiness.
 */
export async function composeIdentityService(
  app: FastifyInstance,
  options: IdentityOptions,
  db: Kysely<Database>,
): Promise<IdentityComposition> {
  await app.register(rateLimit, {
    global: false,
    keyGenerator: clientAddress,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      error: 'Too Many Requests',
      message: `Too many attempts, please wait ${Math.ceil(context.ttl / 1000)} s`,
    }),
  });
  const perMinute = options.rateLimitPerMinute ?? DEFAULTS.rateLimitPerMinute;
  const rateLimitConfig = { max: perMinute, timeWindow: 60_000 };

  const users = transactional(db, createUserRepository);
  const codes = transactional(db, createCodeRepository);
  const passwordResets = createPasswordResetRepository(db);
  const refreshTokens = createRefreshTokens(db, options.refreshTokenTtlDays ?? DEFAULTS.refreshTokenTtlDays);
  app.decorate('users', users);

  await app.register(fastifyCookie);
  app.useUserDirectory(async (id) => (await users.byId(id)) !== undefined);
  const accounts = createAccounts(users, options);
  const accessRevocations = createAccessRevocations(db, app.revokeAccess, options);
  await accessRevocations.announceStored();
  const mailer = await createMailer(options.mail, app.log);
  app.addHook('onClose', async () => mailer.close());
  const captcha = createCaptcha(options.captcha, db, app.log);
  app.addHook('onClose', async () => captcha.close());
  const configuredUrl = options.publicUrl ?? 'http://localhost:8080';
  const publicUrl = typeof configuredUrl === 'function' ? configuredUrl : () => configuredUrl;
  const passwordRecovery = createPasswordRecovery(users, { publicUrl });

  // What the service hears on the bus, and the events that are a transaction of their own.
  const messaging = await startIdentityMessaging(app, {
    db,
    mailer,
    passwordRecovery,
    operatorEmail: options.mail.operatorEmail,
  });

  await ensureFirstAdmin({ users, accounts, log: app.log }, options);
  const composition = {
    users,
    codes,
    passwordResets,
    refreshTokens,
    accounts,
    accessRevocations,
    mailer,
    captcha,
    passwordRecovery,
    messaging,
  };
  await app.register(captchaRoutes, composition);
  await app.register(authenticateRoutes, {
    ...composition,
    loginThrottle: createLoginThrottle(loginLimits(perMinute)),
  });
  await app.register(registerRoutes, { ...composition, rateLimit: rateLimitConfig, publicUrl });
  await app.register(registerConfirmRoutes, composition);
  await app.register(codeRoutes, composition);
  await app.register(contactRoutes, {
    ...composition,
    rateLimit: rateLimitConfig,
    operatorEmail: options.mail.operatorEmail,
  });
  return composition;
}
