import { BUILD_INPUTS_FILE, buildInputsHash } from '@lakecams/mf-config/build-inputs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { staleFrontends } from '../frontend-build.ts';

const FRONTENDS = ['shell', 'mf-map', 'mf-account', 'mf-admin', 'embed'];
/** The file each build leaves when it finished. */
const builtMark = (folder: string) =>
  folder === 'shell' ? 'index.html' : folder === 'embed' ? 'v1.js' : 'mf-manifest.json';

describe('npm start builds what is missing or stale', () => {
  let root: string;

  /** A repository with the front ends (the embedded player too) and one library the map uses. */
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'lakecams-stale-'));
    await writeFile(join(root, 'package-lock.json'), '{"lockfileVersion":3}');
    await mkdir(join(root, 'libs', 'ui-kit', 'src'), { recursive: true });
    await writeFile(join(root, 'libs', 'ui-kit', 'package.json'), '{"name":"@lakecams/ui-kit"}');
    await writeFile(join(root, 'libs', 'ui-kit', 'src', 'index.ts'), 'export const frame = 1;');
    for (const folder of FRONTENDS) {
      await mkdir(join(root, folder, 'src'), { recursive: true });
      const dependencies = folder === 'mf-map' ? { '@lakecams/ui-kit': '*' } : {};
      await writeFile(
        join(root, folder, 'package.json'),
        JSON.stringify({ name: `@lakecams/${folder}`, dependencies }),
      );
      await writeFile(join(root, folder, 'src', 'index.ts'), `export const name = '${folder}';`);
    }
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  /** A build as the rspack config leaves it: its entry file and the hash of its inputs. */
  async function build(folder: string) {
    await mkdir(join(root, folder, 'dist'), { recursive: true });
    await writeFile(join(root, folder, 'dist', builtMark(folder)), '{}');
    await writeFile(join(root, folder, 'dist', BUILD_INPUTS_FILE), `${buildInputsHash(root, folder)}\n`);
  }
  const stale = () => staleFrontends(root).map(({ folder, reason }) => `${folder}: ${reason}`);

  it('names every front end not built yet, and none once all are built', async () => {
    expect(stale()).toEqual(FRONTENDS.map((folder) => `${folder}: not built yet`));
    // A dist folder without its manifest is an interrupted build, still to be built.
    await mkdir(join(root, 'mf-map', 'dist'), { recursive: true });
    expect(stale()).toContain('mf-map: not built yet');
    for (const folder of FRONTENDS) await build(folder);
    expect(stale()).toEqual([]);
  });

  it('rebuilds after an edit of its sources, of a library it uses or of the lockfile, and only what that touches', async () => {
    for (const folder of FRONTENDS) await build(folder);
    await writeFile(join(root, 'mf-map', 'src', 'index.ts'), "export const name = 'map';");
    expect(stale()).toEqual(['mf-map: its sources changed since the last build']);
    await build('mf-map');

    await writeFile(join(root, 'libs', 'ui-kit', 'src', 'added.ts'), 'export {};');
    expect(stale()).toEqual(['mf-map: its sources changed since the last build']);
    await build('mf-map');

    // Tests and files under dist do not make a build stale.
    await mkdir(join(root, 'shell', 'test'), { recursive: true });
    await writeFile(join(root, 'shell', 'test', 'x.test.ts'), '');
    await writeFile(join(root, 'shell', 'src', 'x.test.ts'), '');
    expect(stale()).toEqual([]);

    await writeFile(join(root, 'package-lock.json'), '{"lockfileVersion":3,"packages":{}}');
    expect(stale()).toHaveLength(FRONTENDS.length);
  });

  it('rebuilds a build that does not record its inputs', async () => {
    for (const folder of FRONTENDS) await build(folder);
    await rm(join(root, 'mf-admin', 'dist', BUILD_INPUTS_FILE));
    expect(stale()).toEqual(['mf-admin: its build does not say what it was built from']);
  });
});
