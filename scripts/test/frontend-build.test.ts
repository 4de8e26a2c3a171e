import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { unbuiltFrontends } from '../frontend-build.ts';

describe('npm start builds what is not built yet', () => {
  let root: string;
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('names every front end whose entry file is missing, and none once all are built', async () => {
    root = await mkdtemp(join(tmpdir(), 'lakecams-unbuilt-'));
    expect(unbuiltFrontends(root)).toEqual(['shell', 'mf-map', 'mf-account', 'mf-admin']);

    await mkdir(join(root, 'shell', 'dist'), { recursive: true });
    await writeFile(join(root, 'shell', 'dist', 'index.html'), '<!doctype html>');
    // A dist folder without its manifest is an interrupted build, still to be built.
    await mkdir(join(root, 'mf-map', 'dist'), { recursive: true });
    expect(unbuiltFrontends(root)).toEqual(['mf-map', 'mf-account', 'mf-admin']);

    for (const remote of ['mf-map', 'mf-account', 'mf-admin']) {
      await mkdir(join(root, remote, 'dist'), { recursive: true });
      await writeFile(join(root, remote, 'dist', 'mf-manifest.json'), '{}');
    }
    expect(unbuiltFrontends(root)).toEqual([]);
  });
});
