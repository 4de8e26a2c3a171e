import { createInProcessBus } from '@lakecams/bus';
import { buildServiceApp, createLogger, generateSigningKeys, type ServiceApp } from '@lakecams/service-kit';
import { createTestClient, createTestDatabase } from '@lakecams/service-kit/testing';
import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identityService, type IdentityOptions } from '../src/app.ts';

export const ADMIN = { username: 'portaladmin', email: 'admin@example.org', password: 'Adm1n!Secret' };

/** svc-identity on its own, listening, on a fresh database, mails in a temporary outbox. */
export async function startIdentity(overrides: Partial<IdentityOptions> = {}) {
  const database = await createTestDatabase('identity');
  const outboxDir = await mkdtemp(join(tmpdir(), 'lakecams-outbox-'));
  const keys = generateSigningKeys();
  const bus = createInProcessBus();
  const app: ServiceApp = await buildServiceApp(identityService, {
    bus,
    logger: createLogger('silent'),
    databaseUrl: database.url,
    jwtPublicKey: keys.publicKey,
    options: {
      jwtPrivateKey: keys.privateKey,
      mail: { outboxDir, from: 'portal@example.org', operatorEmail: 'operator@example.org' },
      captcha: { hmacSecret: 'test-secret-test-secret' },
      admin: ADMIN,
      rateLimitPerMinute: 1000,
      ...overrides,
    },
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    app,
    outboxDir,
    client: () => createTestClient(url),
    async close() {
      await app.close();
      await bus.close();
      await database.drop();
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

/** The mails in the outbox addressed to `to`, oldest first (waits until at least `count` are there). */
export async function mailsTo(outboxDir: string, to: string, count = 1, timeoutMs = 5000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = (await readdir(outboxDir)).filter((f) => f.endsWith('.eml')).sort();
    const mails = (await Promise.all(files.map((f) => readFile(join(outboxDir, f), 'utf8')))).filter((m) =>
      new RegExp(`^To: ${to}$`, 'mi').test(m),
    );
    if (mails.length >= count || Date.now() > deadline) return mails;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Undo quoted-printable soft line breaks so tokens can be read from a mail. */
export function mailText(mail: string): string {
  return mail
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
