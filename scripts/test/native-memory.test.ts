import { NATIVE_MEMORY_ENV } from '@lakecams/service-kit';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const scripts = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

/** The variables a shell command line sets before its command. */
const assignments = (command: string) =>
  Object.fromEntries([...command.matchAll(/(?:^|\s)([A-Z_]+)=(\S+)(?=\s)/g)].map((m) => [m[1], m[2]]));

describe('the malloc settings', () => {
  it('start the embedded portal and the benchmarks (glibc reads them only when a process starts)', () => {
    for (const name of ['start', 'bench', 'bench:load']) {
      expect(assignments(scripts[name] ?? ''), name).toEqual(NATIVE_MEMORY_ENV);
    }
  });

  it('reach the distributed services through their launcher', () => {
    const launcher = readFileSync(new URL('../start-distributed.ts', import.meta.url), 'utf8');
    expect(launcher).toMatch(/env: \{\s*\.\.\.process\.env,\s*\.\.\.NATIVE_MEMORY_ENV,/);
  });
});
