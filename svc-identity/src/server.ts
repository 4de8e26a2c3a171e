import { loadConfig, publicKeyOf, runService, exitOnConfigError } from '@lakecams/service-kit';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Type } from 'typebox';
import { firstAdminFromEnvironment, identityService } from './app.ts';

const config = exitOnConfigError(() =>
  loadConfig(
    Type.Object({
      JWT_PRIVATE_KEY: Type.String({ minLength: 1 }),
      PUBLIC_URL: Type.String({ default: 'http://localhost:8080' }),
      COOKIE_SECURE: Type.Boolean({ default: false }),
      DATA_DIR: Type.String({ default: './data' }),
      SMTP_URL: Type.Optional(Type.String()),
      MAIL_FROM: Type.String({ default: 'Seecam Zürichsee <noreply@seecam.example>' }),
      OPERATOR_EMAIL: Type.String({ default: 'webcams@seecam.example' }),
      CAPTCHA_HMAC_SECRET: Type.Optional(Type.String({ minLength: 16 })),
      RECAPTCHA_SITE_KEY: Type.Optional(Type.String()),
      RECAPTCHA_SECRET_KEY: Type.Optional(Type.String()),
      RECAPTCHA_VERIFY_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
      ADMIN_USERNAME: Type.Optional(Type.String()),
      ADMIN_EMAIL: Type.Optional(Type.String()),
      ADMIN_PASSWORD: Type.Optional(Type.String()),
      DEMO_ADMIN: Type.Boolean({ default: false }),
      RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 10 }),
      ACCESS_TOKEN_TTL_SECONDS: Type.Integer({ minimum: 10, default: 900 }),
    }),
  ),
);
const admin = exitOnConfigError(() => firstAdminFromEnvironment(config));

// The service verifies its own tokens with the public half of its key.
process.env.JWT_PUBLIC_KEY ??= publicKeyOf(config.JWT_PRIVATE_KEY);

await runService(identityService, {
  jwtPrivateKey: config.JWT_PRIVATE_KEY,
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
  admin,
  demoAdmin: config.DEMO_ADMIN,
  onDemoAdminCreated: ({ username: demoUser, password: demoPassword }) =>
    console.log(`\nDemo administrator created: username ${demoUser}, password ${demoPassword} (shown only now)\n`),
  rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
});
