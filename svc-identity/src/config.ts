import { BaseConfigSchema, ConfigError, loadConfig } from '@lakecams/service-kit';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { type Static, Type } from 'typebox';
import { DEFAULTS, type IdentityOptions } from './options.ts';
import { firstAdminFromEnvironment } from './accounts/first-admin.ts';

/**
 * svc-identity's settings from the environment, read by its own process (server.ts) and by the embedded
 * portal (`npm start`), which decides the key, folders, URL and demo admin itself.
 */
export const IdentityConfigSchema = Type.Object({
  ...BaseConfigSchema.properties,
  /** PEM private key (Ed25519) access tokens are signed with; required unless the runner brings its own. */
  JWT_PRIVATE_KEY: Type.Optional(Type.String({ minLength: 1 })),
  ACCESS_TOKEN_TTL_SECONDS: Type.Integer({ minimum: 10, default: DEFAULTS.accessTokenTtlSeconds }),
  /** Base URL of the portal, for links in mails. */
  PUBLIC_URL: Type.String({ default: DEFAULTS.publicUrl }),
  /** Mark the refresh cookie Secure (the portal is served over https). */
  COOKIE_SECURE: Type.Boolean({ default: false }),
  SMTP_URL: Type.Optional(Type.String()),
  MAIL_FROM: Type.String({ default: 'Seecam Zürichsee <noreply@seecam.example>' }),
  /** Where contact messages go. */
  OPERATOR_EMAIL: Type.String({ default: 'webcams@seecam.example' }),
  /** Signs ALTCHA challenges; the same on every replica (random per process when unset). */
  CAPTCHA_HMAC_SECRET: Type.Optional(Type.String({ minLength: 16 })),
  /** reCAPTCHA v3 replaces ALTCHA when both keys are set. */
  RECAPTCHA_SITE_KEY: Type.Optional(Type.String()),
  RECAPTCHA_SECRET_KEY: Type.Optional(Type.String()),
  RECAPTCHA_VERIFY_URL: Type.String({ pattern: '^https?://', default: DEFAULTS.recaptchaVerifyUrl }),
  /** First administrator, created on start when no admin exists: all three or none. */
  ADMIN_USERNAME: Type.Optional(Type.String()),
  ADMIN_EMAIL: Type.Optional(Type.String()),
  ADMIN_PASSWORD: Type.Optional(Type.String()),
  /** Create a demo admin with a generated password when no first administrator is given. */
  DEMO_ADMIN: Type.Boolean({ default: false }),
  /** Requests per minute and client for register, recover-password, reset-password and contact. */
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: DEFAULTS.rateLimitPerMinute }),
});
export type IdentityConfig = Static<typeof IdentityConfigSchema>;

/** Defaults applied and values converted; a wrong value throws a ConfigError naming the variable. */
export function loadIdentityConfig(env: Record<string, string | undefined> = process.env): IdentityConfig {
  return loadConfig(IdentityConfigSchema, env);
}

/** What only the runner has: a signing key it made itself, and who is told the demo admin's password. */
export interface IdentityRuntime {
  /** The embedded portal's own key (kept in its data folder); JWT_PRIVATE_KEY otherwise. */
  jwtPrivateKey?: string;
  onDemoAdminCreated?: IdentityOptions['onDemoAdminCreated'];
}

/**
 * The service options the settings stand for. Throws a ConfigError when there is no signing key, or when the
 * first administrator is set in part or could not log in.
 */
export function identityOptionsFromConfig(config: IdentityConfig, runtime: IdentityRuntime = {}): IdentityOptions {
  const jwtPrivateKey = runtime.jwtPrivateKey ?? config.JWT_PRIVATE_KEY;
  if (!jwtPrivateKey) throw new ConfigError('Invalid configuration: JWT_PRIVATE_KEY is required (PEM, Ed25519)');
  return {
    jwtPrivateKey,
    accessTokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
    publicUrl: config.PUBLIC_URL,
    cookieSecure: config.COOKIE_SECURE,
    mail: {
      smtpUrl: config.SMTP_URL,
      outboxDir: join(config.DATA_DIR, 'outbox'),
      from: config.MAIL_FROM,
      operatorEmail: config.OPERATOR_EMAIL,
    },
    captcha: {
      // Replicas must share the secret; a random one suits a single process.
      hmacSecret: config.CAPTCHA_HMAC_SECRET ?? randomBytes(32).toString('hex'),
      recaptchaSiteKey: config.RECAPTCHA_SITE_KEY,
      recaptchaSecretKey: config.RECAPTCHA_SECRET_KEY,
      recaptchaVerifyUrl: config.RECAPTCHA_VERIFY_URL,
    },
    admin: firstAdminFromEnvironment(config),
    demoAdmin: config.DEMO_ADMIN,
    ...(runtime.onDemoAdminCreated ? { onDemoAdminCreated: runtime.onDemoAdminCreated } : {}),
    rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
  };
}
