import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PortalOptions, type RunningPortal, startPortal } from '../scripts/portal.ts';
import { freePort } from './browser.ts';

/** Where browser tests put their screenshots. */
export const ARTIFACTS = join(fileURLToPath(new URL('.', import.meta.url)), '.artifacts');

/**
 * The real embedded mode of `npm start` (embedded PostgreSQL, in-process bus, demo cameras) for one
 * browser test file: a free port, its own data folder, removed again by `close()`.
 */
export async function startTestPortal(options: PortalOptions = {}): Promise<RunningPortal> {
  const dataDir = await mkdtemp(join(tmpdir(), 'lakecams-e2e-'));
  await mkdir(ARTIFACTS, { recursive: true });
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
