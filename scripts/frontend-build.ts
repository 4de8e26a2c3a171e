import { REMOTES } from '@lakecams/contracts';
import { buildInputsHash, recordedBuildInputs } from '@lakecams/mf-config/build-inputs';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The file a finished build of a front end has (a remote's is its manifest). */
const BUILT_MARK: Record<string, string> = { shell: 'index.html', embed: 'v1.js' };

export interface StaleFrontend {
  folder: string;
  /** Why it is built, as `npm start` says it. */
  reason: string;
}

/**
 * The front ends whose `dist/` does not match their sources: missing or interrupted, built before builds
 * recorded their inputs, or built from other sources, libraries or lockfile than there are now.
 */
export function staleFrontends(root: string): StaleFrontend[] {
  const stale: StaleFrontend[] = [];
  for (const folder of ['shell', ...REMOTES.map((r) => r.folder), 'embed']) {
    const dist = join(root, folder, 'dist');
    const recorded = recordedBuildInputs(dist);
    if (!existsSync(join(dist, BUILT_MARK[folder] ?? 'mf-manifest.json'))) {
      stale.push({ folder, reason: 'not built yet' });
    } else if (recorded === null) {
      stale.push({ folder, reason: 'its build does not say what it was built from' });
    } else if (recorded !== buildInputsHash(root, folder)) {
      stale.push({ folder, reason: 'its sources changed since the last build' });
    }
  }
  return stale;
}

/** Build what is missing or stale (each package on its own), saying which and why. */
export function buildStaleFrontends(root: string): void {
  for (const { folder, reason } of staleFrontends(root)) {
    console.log(`Building ${folder} (${reason}) …`);
    const result = spawnSync('npm', ['run', 'build', '-w', folder], {
      cwd: root,
      stdio: 'inherit',
    });
    if (result.status !== 0) throw new Error(`Building ${folder} failed`);
  }
}
