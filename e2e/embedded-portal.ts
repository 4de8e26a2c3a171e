import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { type PortalOptions, type RunningPortal, startPortal } from '../scripts/portal.ts';
import { freePort } from './browser.ts';

/** Where browser tests put their screenshots. */
export const ARTIFACTS = join(fileURLToPath(new URL('.', import.meta.url)), '.artifacts');

/**
 * Puts the run's initialised PostgreSQL (e2e/global-setup.ts) into a portal's data folder, so the portal starts it
 * as it starts an existing one instead of running `initdb` again. `cp -a` keeps the owner (the `postgres` user
 * when the tests run as root) and the modes PostgreSQL insists on.
 */
export async function seedEmbeddedPostgres(dataDir: string): Promise<void> {
  const template = inject('postgresTemplate');
  if (!template) return;
  await promisify(execFile)('cp', ['-a', join(template, 'postgres'), join(template, 'postgres.password'), dataDir]);
}

/**
 * The real embedded mode of `npm start` (embedded PostgreSQL, in-process bus, demo cameras) for one
 * browser test file: a free port, its own data folder, removed again by `close()`.
 */
export async function startTestPortal(options: PortalOptions = {}): Promise<RunningPortal> {
  const dataDir = await mkdtemp(join(tmpdir(), 'lakecams-e2e-'));
  await mkdir(ARTIFACTS, { recursive: true });
  await seedEmbeddedPostgres(dataDir);
  const portal = await startPortal({
    port: 0,
    logLevel: 'warn',
    dataDir,
    embeddedPostgresPort: await freePort(),
    ...options,
  });
  return {
    ...portal,
    close: async () => {
      await portal.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
