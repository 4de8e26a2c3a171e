import rateLimit from '@fastify/rate-limit';
import type { ServiceDefinition } from '@lakecams/service-kit';
import type { Database } from './database.ts';
import { clientAddress, createLoginThrottle, loginLimits } from './login-throttle.ts';
import messaging from './messaging.ts';
import { migrations } from './migrations/index.ts';
import { DEFAULTS, type IdentityOptions } from './options.ts';
import accessRevocation from './plugins/app/access-revocation.ts';
import accounts from './plugins/app/accounts.ts';
import captcha from './plugins/app/captcha.ts';
import codeRepository from './plugins/app/code-repository.ts';
import firstAdmin from './plugins/app/first-admin.ts';
import mailer from './plugins/app/mailer.ts';
import passwordRecovery from './plugins/app/password-recovery.ts';
import passwordResetRepository from './plugins/app/password-reset-repository.ts';
import refreshTokenRepository from './plugins/app/refresh-token-repository.ts';
import userRepository from './plugins/app/user-repository.ts';
import authenticateRoutes from './routes/api/Authenticate/index.ts';
import codeRoutes from './routes/api/Code/index.ts';
import contactRoutes from './routes/api/Contact/index.ts';
import registerRoutes from './routes/api/Register/index.ts';
import registerConfirmRoutes from './routes/api/RegisterConfirm/index.ts';

export type { IdentityOptions } from './options.ts';
export {
  type IdentityConfig,
  IdentityConfigSchema,
  type IdentityRuntime,
  identityOptionsFromConfig,
  loadIdentityConfig,
} from './config.ts';
export { firstAdminFromEnvironment } from './plugins/app/first-admin.ts';

/** svc-identity: users, roles, tokens, registration, feature codes, contact, and the mail they send. */
export const identityService: ServiceDefinition<IdentityOptions, Database> = {
  name: 'identity',
  version: '0.2.0',
  migrations,
  plugin: async (app, options, db) => {
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
    await app.register(userRepository, { db });
    await app.register(codeRepository, { db });
    await app.register(passwordResetRepository, { db });
    await app.register(refreshTokenRepository, { db, ttlDays: options.refreshTokenTtlDays });
    await app.register(accounts, options);
    await app.register(accessRevocation, { ...options, db });
    await app.register(mailer, options.mail);
    await app.register(captcha, { ...options.captcha, db });
    const configuredUrl = options.publicUrl ?? 'http://localhost:8080';
    const publicUrl = typeof configuredUrl === 'function' ? configuredUrl : () => configuredUrl;
    await app.register(passwordRecovery, { publicUrl });
    // What the service hears on the bus, and the events that are a transaction of their own.
    await app.register(messaging, { db, operatorEmail: options.mail.operatorEmail });
    await app.register(firstAdmin, options);
    await app.register(authenticateRoutes, { loginThrottle: createLoginThrottle(loginLimits(perMinute)) });
    await app.register(registerRoutes, { rateLimit: rateLimitConfig, publicUrl });
    await app.register(registerConfirmRoutes);
    await app.register(codeRoutes);
    await app.register(contactRoutes, {
      rateLimit: rateLimitConfig,
      operatorEmail: options.mail.operatorEmail,
    });
  },
};
