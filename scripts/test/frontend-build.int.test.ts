import { buildInputsHash, recordedBuildInputs } from '@lakecams/mf-config/build-inputs';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('a front-end build', () => {
  let out: string | undefined;
  afterAll(() => (out ? rm(out, { recursive: true, force: true }) : undefined));

  it('records the hash of the inputs it was built from, as npm start computes it', async () => {
    out = await mkdtemp(join(tmpdir(), 'lakecams-build-'));
    const result = spawnSync('npm', ['run', 'build', '-w', 'mf-account'], {
      cwd: ROOT,
      env: { ...process.env, MF_OUT_DIR: out },
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    expect(recordedBuildInputs(out)).toBe(buildInputsHash(ROOT, 'mf-account'));
  }, 120_000);
});
