import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Compiler, RspackPluginInstance } from '@rspack/core';

/** Beside a build's files: the hash of what it was built from (`npm start` rebuilds when it differs). */
export const BUILD_INPUTS_FILE = '.build-inputs';

/** Folders and files of an app or library that never change its build. */
const NOT_INPUT = new Set(['dist', 'node_modules', 'test', '.results']);

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(
      (entry) =>
        entry.isFile() &&
        !relative(dir, entry.parentPath)
          .split(/[\\/]/)
          .some((p) => NOT_INPUT.has(p)),
    )
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !/\.test\.[cm]?tsx?$/.test(file));
}

/** The workspace libraries (`libs/<name>`) an app builds from, followed through their own dependencies. */
function workspaceLibraries(root: string, folder: string): string[] {
  const found = new Set<string>();
  const visit = (packageDir: string) => {
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) {
      const library = /^@lakecams\/(.+)$/.exec(name)?.[1];
      if (!library || found.has(library) || !existsSync(join(root, 'libs', library, 'package.json'))) continue;
      found.add(library);
      visit(join(root, 'libs', library));
    }
  };
  visit(join(root, folder));
  return [...found].sort().map((library) => join('libs', library));
}

/**
 * A hash over everything a front end's build reads from the repository: its own folder (sources, public
 * files, config, package.json), the workspace libraries it uses and the lockfile. Paths and contents both
 * count, so a renamed, added or deleted file changes it too.
 */
export function buildInputsHash(root: string, folder: string): string {
  const hash = createHash('sha256');
  const files = [folder, ...workspaceLibraries(root, folder)]
    .flatMap((dir) => filesUnder(join(root, dir)))
    .concat(join(root, 'package-lock.json'))
    .filter((file) => existsSync(file))
    .map((file) => relative(root, file).split('\\').join('/'))
    .sort();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The hash a build recorded, or null for a build from before the record (or none). */
export function recordedBuildInputs(outDir: string): string | null {
  try {
    return readFileSync(join(outDir, BUILD_INPUTS_FILE), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** Records, with every build, the hash of the inputs as they were when it started. */
export class BuildInputsPlugin implements RspackPluginInstance {
  private readonly root: string;
  private readonly folder: string;

  constructor(root: string, folder: string) {
    this.root = root;
    this.folder = folder;
  }

  apply(compiler: Compiler) {
    let inputs = '';
    const take = async () => {
      inputs = buildInputsHash(this.root, this.folder);
    };
    compiler.hooks.beforeRun.tapPromise('BuildInputsPlugin', take);
    compiler.hooks.watchRun.tapPromise('BuildInputsPlugin', take);
    compiler.hooks.afterEmit.tapPromise('BuildInputsPlugin', async (compilation) => {
      writeFileSync(join(compilation.outputOptions.path as string, BUILD_INPUTS_FILE), `${inputs}\n`);
    });
  }
}
