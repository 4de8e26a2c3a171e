/** For tests, this package's own and other packages' (`@lakecams/svc-identity/testing`). */
import type { RegisterModel } from '@lakecams/contracts';
import { generateSigningKeys } from '@lakecams/service-kit';
import { buildTestService, createTestClient, type TestServiceOptions } from '@lakecams/service-kit/testing';
import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type IdentityOptions, identityService } from './app.ts';

export type { Database } from './database.ts';
export { announceUser } from './messaging.ts';
export { hashPassword } from './passwords.ts';

/** A password every form rule accepts. */
export const PASSWORD = 'Seeblick!2026';

/** The first administrator `buildIdentityService` configures unless told otherwise. */
export const ADMIN = { username: 'portaladmin', email: 'admin@example.org', password: 'Adm1n!Secret' };

/** A valid registration, unique by `suffix`. */
export function registration(suffix: string): RegisterModel {
  return {
    firstname: 'Anna',
    lastname: 'Muster',
    email: `anna.${suffix}@example.org`,
    username: `anna_${suffix}`,
    password: PASSWORD,
    passwordConfirm: PASSWORD,
    phoneNumber: '079 123 45 67',
  };
}

/** svc-identity's options as a test changes them; the rest comes from `buildIdentityService`. */
export type IdentityOverrides = Partial<Omit<IdentityOptions, 'mail' | 'captcha'>> & {
  mail?: Partial<IdentityOptions['mail']>;
  captcha?: Partial<IdentityOptions['captcha']>;
};

/** Changes to the service's options: by default mails go to a temporary outbox folder, `ADMIN` is the admin. */
export type BuildIdentityServiceOptions = Omit<TestServiceOptions<IdentityOptions>, 'options'> & {
  options?: IdentityOverrides;
};

export type IdentityTestService = Awaited<ReturnType<typeof buildIdentityService>>;

/**
 * svc-identity for one test, as the kit's `buildTestService` builds a service, listening on a free loopback
 * port, with mails written to a temporary outbox folder (removed by `close()`). `client()` is a browser-like HTTP
 * client of `url`.
 */
export async function buildIdentityService(given: BuildIdentityServiceOptions = {}) {
  const keys = given.keys ?? generateSigningKeys();
  const outboxDir = await mkdtemp(join(tmpdir(), 'lakecams-outbox-'));
  const { mail, captcha, ...rest } = given.options ?? {};
  const service = await buildTestService(
    identityService,
    {
      ...given,
      keys,
      options: {
        jwtPrivateKey: keys.privateKey,
        mail: { outboxDir, from: 'portal@example.org', operatorEmail: 'operator@example.org', ...mail },
        captcha: { hmacSecret: 'test-secret-test-secret', ...captcha },
        admin: ADMIN,
        rateLimitPerMinute: 1000,
        ...rest,
      },
    },
    () => rm(outboxDir, { recursive: true, force: true }),
  );
  let url: string;
  try {
    url = await service.app.listen({ host: '127.0.0.1', port: 0 });
  } catch (error) {
    await service.close();
    throw error;
  }
  return { ...service, app: service.app, url, outboxDir, client: () => createTestClient(url) };
}

/** Solve the portal's proof-of-work challenge like the ALTCHA widget does, and encode the payload. */
export async function solveCaptcha(baseUrl: string, action: string): Promise<string> {
  const challenge = (await (await fetch(`${baseUrl}/api/Captcha/Challenge?action=${action}`)).json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('captcha not solved');
  return encodeURIComponent(Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'));
}

/** The outbox's mails that `select` picks, oldest first (waits until at least `count` are there). */
async function outboxMails(outboxDir: string, select: (mail: string) => boolean, count: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = (await readdir(outboxDir)).filter((f) => f.endsWith('.eml')).sort();
    const mails = (await Promise.all(files.map((f) => readFile(join(outboxDir, f), 'utf8')))).filter(select);
    if (mails.length >= count || Date.now() > deadline) return mails;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The mails in the outbox addressed to `to`, oldest first (waits until at least `count` are there). */
export function mailsTo(outboxDir: string, to: string, count = 1, timeoutMs = 5000): Promise<string[]> {
  return outboxMails(outboxDir, (mail) => new RegExp(`^To: ${to}$`, 'mi').test(mail), count, timeoutMs);
}

/** The mails in the outbox whose decoded text contains `text` (waits until at least `count` are there). */
export function mailsContaining(outboxDir: string, text: string, count = 1, timeoutMs = 5000): Promise<string[]> {
  return outboxMails(outboxDir, (mail) => mailText(mail).includes(text), count, timeoutMs);
}

/** Undo quoted-printable soft line breaks so tokens can be read from a mail. */
export function mailText(mail: string): string {
  return mail
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
