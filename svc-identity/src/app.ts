import rateLimit from '@fastify/rate-limit';
import type { ServiceDefinition } from '@lakecams/service-kit';
import type { FastifyInstance } from 'fastify';
import { clientAddress, createLoginThrottle, loginLimits } from './login-throttle.ts';
import { migrations } from './migrations/index.ts';
import { DEFAULTS, type IdentityOptions } from './options.ts';
import accessRevocation from './plugins/app/access-revocation.ts';
import accounts from './plugins/app/accounts.ts';
import captcha from './plugins/app/captcha.ts';
import firstAdmin from './plugins/app/first-admin.ts';
import mailer from './plugins/app/mailer.ts';
import passwordRecovery from './plugins/app/password-recovery.ts';
import authenticateRoutes from './routes/api/Authenticate/index.ts';
import codeRoutes from './routes/api/Code/index.ts';
import contactRoutes from './routes/api/Contact/index.ts';
import registerRoutes from './routes/api/Register/index.ts';
import registerConfirmRoutes from './routes/api/RegisterConfirm/index.ts';

export type { IdentityOptions } from './options.ts';
export { firstAdminFromEnvironment } from './plugins/app/first-admin.ts';

/** svc-identity: users, roles, tokens, registration, feature codes, contact, and the mail they send. */
export const identityService: ServiceDefinition<IdentityOptions> = {
  name: 'identity',
  version: '0.2.0',
  migrations,
  plugin: async (app: FastifyInstance, options: IdentityOptions) => {
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
    await app.register(accounts, options);
    await app.register(accessRevocation, options);
    await app.register(mailer, options.mail);
    await app.register(captcha, options.captcha);
    const configuredUrl = options.publicUrl ?? 'http://localhost:8080';
    const publicUrl = typeof configuredUrl === 'function' ? configuredUrl : () => configuredUrl;
    await app.register(passwordRecovery, { publicUrl });
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
