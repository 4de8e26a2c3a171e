import { ConfigError, generateSigningKeys } from '@lakecams/service-kit';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { identityOptionsFromConfig, loadIdentityConfig } from '../src/config.ts';

const { privateKey } = generateSigningKeys();

describe('svc-identity configuration, one loader for its process and the embedded portal', () => {
  it('defaults to the sender, operator, limits and lifetimes the service had', () => {
    const config = loadIdentityConfig({ JWT_PRIVATE_KEY: privateKey });
    expect(config).toMatchObject({
      PUBLIC_URL: 'http://localhost:8080',
      COOKIE_SECURE: false,
      DATA_DIR: './data',
      MAIL_FROM: 'Seecam Zürichsee <noreply@seecam.example>',
      OPERATOR_EMAIL: 'webcams@seecam.example',
      RECAPTCHA_VERIFY_URL: 'https://www.google.com/recaptcha/api/siteverify',
      DEMO_ADMIN: false,
      RATE_LIMIT_PER_MINUTE: 10,
      ACCESS_TOKEN_TTL_SECONDS: 900,
    });
    const options = identityOptionsFromConfig(config);
    expect(options).toEqual({
      jwtPrivateKey: privateKey,
      accessTokenTtlSeconds: 900,
      publicUrl: 'http://localhost:8080',
      cookieSecure: false,
      mail: {
        outboxDir: join('./data', 'outbox'),
        from: 'Seecam Zürichsee <noreply@seecam.example>',
        operatorEmail: 'webcams@seecam.example',
      },
      captcha: {
        hmacSecret: expect.stringMatching(/^[0-9a-f]{64}$/),
        recaptchaVerifyUrl: 'https://www.google.com/recaptcha/api/siteverify',
      },
      demoAdmin: false,
      rateLimitPerMinute: 10,
    });
    // Without CAPTCHA_HMAC_SECRET each process signs challenges with a random secret of its own.
    expect(identityOptionsFromConfig(config).captcha.hmacSecret).not.toBe(options.captcha.hmacSecret);
  });

  it('takes every value from the environment and turns it into service options', () => {
    const config = loadIdentityConfig({
      JWT_PRIVATE_KEY: privateKey,
      PUBLIC_URL: 'https://seecam.example',
      COOKIE_SECURE: 'true',
      DATA_DIR: '/srv/identity',
      SMTP_URL: 'smtp://mail.example.org:587',
      MAIL_FROM: 'Webcams <webcams@example.org>',
      OPERATOR_EMAIL: 'operator@example.org',
      CAPTCHA_HMAC_SECRET: 'a-secret-of-the-identity-replicas',
      RECAPTCHA_SITE_KEY: 'site',
      RECAPTCHA_SECRET_KEY: 'secret',
      RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:9/siteverify',
      ADMIN_USERNAME: 'chefadmin',
      ADMIN_EMAIL: 'chef@example.org',
      ADMIN_PASSWORD: 'Admin!Passw0rd',
      DEMO_ADMIN: 'true',
      RATE_LIMIT_PER_MINUTE: '30',
      ACCESS_TOKEN_TTL_SECONDS: '60',
      UNRELATED: 'ignored',
    });
    expect(config).not.toHaveProperty('UNRELATED');
    const onDemoAdminCreated = () => {};
    expect(identityOptionsFromConfig(config, { onDemoAdminCreated })).toEqual({
      jwtPrivateKey: privateKey,
      accessTokenTtlSeconds: 60,
      publicUrl: 'https://seecam.example',
      cookieSecure: true,
      mail: {
        smtpUrl: 'smtp://mail.example.org:587',
        outboxDir: join('/srv/identity', 'outbox'),
        from: 'Webcams <webcams@example.org>',
        operatorEmail: 'operator@example.org',
      },
      captcha: {
        hmacSecret: 'a-secret-of-the-identity-replicas',
        recaptchaSiteKey: 'site',
        recaptchaSecretKey: 'secret',
        recaptchaVerifyUrl: 'http://127.0.0.1:9/siteverify',
      },
      admin: { username: 'chefadmin', email: 'chef@example.org', password: 'Admin!Passw0rd' },
      demoAdmin: true,
      onDemoAdminCreated,
      rateLimitPerMinute: 30,
    });
  });

  it("takes the runner's own signing key over JWT_PRIVATE_KEY (the embedded portal keeps one in its data folder)", () => {
    const own = generateSigningKeys().privateKey;
    expect(identityOptionsFromConfig(loadIdentityConfig({}), { jwtPrivateKey: own }).jwtPrivateKey).toBe(own);
  });

  it('refuses a wrong value with a message naming the variable', () => {
    expect(() => loadIdentityConfig({ RATE_LIMIT_PER_MINUTE: 'zehn' })).toThrow(ConfigError);
    expect(() => loadIdentityConfig({ RATE_LIMIT_PER_MINUTE: 'zehn' })).toThrow(/RATE_LIMIT_PER_MINUTE/);
    expect(() => loadIdentityConfig({ ACCESS_TOKEN_TTL_SECONDS: '5' })).toThrow(
      /Invalid configuration: ACCESS_TOKEN_TTL_SECONDS/,
    );
    expect(() => loadIdentityConfig({ CAPTCHA_HMAC_SECRET: 'short' })).toThrow(/CAPTCHA_HMAC_SECRET/);
    expect(() => loadIdentityConfig({ RECAPTCHA_VERIFY_URL: 'siteverify' })).toThrow(/RECAPTCHA_VERIFY_URL/);
    expect(() => loadIdentityConfig({ COOKIE_SECURE: 'maybe' })).toThrow(/COOKIE_SECURE/);
    expect(() => loadIdentityConfig({ PORT: '70000' })).toThrow(/PORT/);
    // The service process needs a key; a first administrator is all three variables or none.
    expect(() => identityOptionsFromConfig(loadIdentityConfig({}))).toThrow(/JWT_PRIVATE_KEY is required/);
    expect(() =>
      identityOptionsFromConfig(loadIdentityConfig({ JWT_PRIVATE_KEY: privateKey, ADMIN_USERNAME: 'chef' })),
    ).toThrow(/ADMIN_EMAIL, ADMIN_PASSWORD missing/);
  });
});
