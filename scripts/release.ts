/**
 * Ships one remote on its own schedule: `npm run release -w mf-admin` builds it into a versioned folder under
 * `releases/` and points /remotes.json at it in one rename; `-- --rollback` points it back at the version
 * before. The shell and the other remotes are not touched (README, "Working on one remote").
 */
import { REMOTES } from '@lakecams/contracts';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Versions kept per remote: the current one and those a rollback can go back to. */
export const KEPT_VERSIONS = 3;

/** What `releases/state.json` holds per remote folder: newest last. */
export type ReleaseState = Record<string, { versions: string[] }>;

export class ReleaseError extends Error {}

export function remoteOf(folder: string) {
  const remote = REMOTES.find((r) => r.folder === folder || r.name === folder);
  if (!remote)
    throw new ReleaseError(`No remote ${folder}; the remotes are ${REMOTES.map((r) => r.folder).join(', ')}`);
  return remote;
}

/** `<package version>-<UTC time>`: sortable, and a new folder for every build. */
export function versionName(packageVersion: string, now = new Date()): string {
  return `${packageVersion}-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}`;
}

/** The manifests /remotes.json names for released remotes, from the state. */
export function releasedManifests(state: ReleaseState): Record<string, string> {
  return Object.fromEntries(
    Object.entries(state).flatMap(([folder, { versions }]) => {
      const current = versions.at(-1);
      return current ? [[remoteOf(folder).name, `/releases/${folder}/${current}/mf-manifest.json`]] : [];
    }),
  );
}

async function readState(dir: string): Promise<ReleaseState> {
  try {
    return JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as ReleaseState;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
}

/** Written beside and renamed over: a gateway reading it sees the old file or the new one, never half. */
async function writeAtomically(file: string, content: string) {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, content);
  await rename(temporary, file);
}

/** The state and /remotes.json's released entries, switched together (remotes.json last, it is what is read). */
async function switchTo(dir: string, state: ReleaseState) {
  await writeAtomically(join(dir, 'state.json'), `${JSON.stringify(state, null, 2)}\n`);
  await writeAtomically(join(dir, 'remotes.json'), `${JSON.stringify(releasedManifests(state), null, 2)}\n`);
}

function build(folder: string, outDir: string): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn('npm', ['run', 'build', '-w', folder], {
      cwd: ROOT,
      env: { ...process.env, MF_OUT_DIR: outDir },
      stdio: 'inherit',
    });
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? done() : fail(new ReleaseError(`The build of ${folder} failed`))));
  });
}

export interface ReleaseOptions {
  /** Folder holding `releases/` (the gateway's FRONTEND_ROOT); the repository by default. */
  frontendRoot?: string;
  now?: Date;
  /** Builds the remote into a folder; the real build by default (tests may copy one). */
  buildInto?: (folder: string, outDir: string) => Promise<void>;
}

/** Builds `folder` into a new version and makes it current; answers the version. */
export async function release(folder: string, options: ReleaseOptions = {}): Promise<string> {
  const remote = remoteOf(folder);
  const dir = join(resolve(options.frontendRoot ?? ROOT), 'releases');
  const { version: packageVersion } = JSON.parse(await readFile(join(ROOT, remote.folder, 'package.json'), 'utf8')) as {
    version: string;
  };
  const version = versionName(packageVersion, options.now);
  const outDir = join(dir, remote.folder, version);
  if (existsSync(outDir)) throw new ReleaseError(`${remote.folder} ${version} exists already`);
  await mkdir(outDir, { recursive: true });
  try {
    await (options.buildInto ?? build)(remote.folder, outDir);
    if (!existsSync(join(outDir, 'mf-manifest.json'))) throw new ReleaseError(`The build left no mf-manifest.json`);
  } catch (error) {
    await rm(outDir, { recursive: true, force: true });
    throw error;
  }
  const state = await readState(dir);
  const versions = [...(state[remote.folder]?.versions ?? []), version];
  await switchTo(dir, { ...state, [remote.folder]: { versions: versions.slice(-KEPT_VERSIONS) } });
  for (const old of versions.slice(0, -KEPT_VERSIONS))
    await rm(join(dir, remote.folder, old), { recursive: true, force: true });
  return version;
}

/** Makes the version before the current one current again; answers it. */
export async function rollback(folder: string, options: Pick<ReleaseOptions, 'frontendRoot'> = {}): Promise<string> {
  const remote = remoteOf(folder);
  const dir = join(resolve(options.frontendRoot ?? ROOT), 'releases');
  const state = await readState(dir);
  const versions = state[remote.folder]?.versions ?? [];
  const previous = versions.at(-2);
  if (!previous) throw new ReleaseError(`${remote.folder} has no earlier release to go back to`);
  const undone = versions.at(-1) as string;
  await switchTo(dir, { ...state, [remote.folder]: { versions: versions.slice(0, -1) } });
  await rm(join(dir, remote.folder, undone), { recursive: true, force: true });
  return previous;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [folder = '', flag] = process.argv.slice(2);
  try {
    if (flag !== undefined && flag !== '--rollback') throw new ReleaseError(`Unknown option ${flag} (only --rollback)`);
    const version = flag === '--rollback' ? await rollback(folder) : await release(folder);
    console.log(
      `${folder} ${version} is now served: /remotes.json names /releases/${remoteOf(folder).folder}/${version}/`,
    );
  } catch (error) {
    if (!(error instanceof ReleaseError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
}
