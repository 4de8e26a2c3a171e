import type { RegisterModel } from '@lakecams/contracts';
import { createInProcessBus } from '@lakecams/bus';
import {
  buildServiceApp,
  createKysely,
  createLogger,
  generateSigningKeys,
  type ServiceApp,
} from '@lakecams/service-kit';
import { createTestClient, createTestDatabase } from '@lakecams/service-kit/testing';
import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { identityService, type IdentityOptions } from '../src/app.ts';
import type { Database } from '../src/database.ts';

/** A password every form rule accepts. */
export const PASSWORD = 'Seeblick!2026';

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

export const ADMIN = { username: 'portaladmin', email: 'admin@example.org', password: 'Adm1n!Secret' };

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;
export type IdentityOverrides = Partial<Omit<IdentityOptions, 'mail' | 'captcha'>> & {
  mail?: Partial<IdentityOptions['mail']>;
  captcha?: Partial<IdentityOptions['captcha']>;
};

/**
 * svc-identity on its own, listening, on a fresh database (or `database`, which it then leaves in place),
 * mails in a temporary outbox.
 */
export async function startIdentity(overrides: IdentityOverrides = {}, shared?: { database: TestDatabase }) {
  const database = shared?.database ?? (await createTestDatabase('identity'));
  const outboxDir = await mkdtemp(join(tmpdir(), 'lakecams-outbox-'));
  const keys = generateSigningKeys();
  const bus = createInProcessBus();
  const { mail, captcha, ...rest } = overrides;
  const app: ServiceApp = await buildServiceApp(identityService, {
    bus,
    logger: createLogger('silent'),
    databaseUrl: database.url,
    jwtPublicKey: keys.publicKey,
    options: {
      jwtPrivateKey: keys.privateKey,
      mail: { outboxDir, from: 'portal@example.org', operatorEmail: 'operator@example.org', ...mail },
      captcha: { hmacSecret: 'test-secret-test-secret', ...captcha },
      admin: ADMIN,
      rateLimitPerMinute: 1000,
      ...rest,
    },
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  // The service's database as a test looks into it.
  const db = createKysely<Database>({ connectionString: database.url });
  return {
    url,
    app,
    bus,
    db,
    publicKey: keys.publicKey,
    outboxDir,
    client: () => createTestClient(url),
    async close() {
      await db.destroy();
      await app.close();
      await bus.close();
      if (!shared) await database.drop();
      await rm(outboxDir, { recursive: true, force: true });
    },
  };
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

/** A boolean route's success: exactly the text `true`, sent as text. */
export function expectTrueText(response: { status: number; text: string; headers: Headers }): void {
  expect(response.status, response.text).toBe(200);
  expect(response.text).toBe('true');
  expect(response.headers.get('content-type')).toMatch(/^text\/plain\b/);
}

/** Undo quoted-printable soft line breaks so tokens can be read from a mail. */
export function mailText(mail: string): string {
  return mail
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/**
 * Run one of svc-identity's entry points (`src/server.ts`, `scripts/create-codes.ts`) as its own process with this
 * Node, given only `env` and PATH; it is killed after `timeoutMs`.
 */
export function runEntryPoint(
  relativePath: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 20_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const file = fileURLToPath(new URL(`../${relativePath}`, import.meta.url));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [file, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: timeoutMs },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
