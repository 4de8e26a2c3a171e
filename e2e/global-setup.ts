import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createLogger, freePort } from '@lakecams/service-kit';
import { startEmbeddedPostgres } from '../scripts/embedded-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A data folder holding an initialised, stopped embedded PostgreSQL (`postgres/`, `postgres.password`). */
    postgresTemplate: string;
  }
}

/**
 * Once per e2e run: one `initdb`, whose cluster each test portal copies (e2e/embedded-portal.ts) instead of
 * initialising its own. Started and stopped once, so the copy is a cleanly shut down cluster.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'lakecams-e2e-template-'));
  const postgres = await startEmbeddedPostgres(dir, await freePort(), createLogger('warn'));
  await postgres.stop();
  project.provide('postgresTemplate', dir);
  return () => rm(dir, { recursive: true, force: true });
}
