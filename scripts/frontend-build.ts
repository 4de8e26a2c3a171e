import { REMOTES } from '@lakecams/contracts';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The front-end packages whose `dist/` is missing. */
export function unbuiltFrontends(root: string): string[] {
  return ['shell', ...REMOTES.map((r) => r.folder)].filter(
    (folder) => !existsSync(join(root, folder, 'dist', folder === 'shell' ? 'index.html' : 'mf-manifest.json')),
  );
}

/** Build what is not built yet (each package on its own). */
export function buildMissingFrontends(root: string): void {
  for (const folder of unbuiltFrontends(root)) {
    console.log(`Building ${folder} …`);
    const result = spawnSync('npm', ['run', 'build', '-w', folder], {
      cwd: root,
      stdio: 'inherit',
    });
    if (result.status !== 0) throw new Error(`Building ${folder} failed`);
  }
}
