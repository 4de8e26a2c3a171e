import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppConfig, DEV_SHARED_VERSION_SUFFIX, SHARED_SINGLETONS, sharedSingletons } from '../src/index.ts';
import { reactRouterExportsModule } from '../src/shared-exports.ts';

const MAP_DIR = path.resolve(import.meta.dirname, '../../../mf-map');

describe('sharedSingletons', () => {
  it('shares every singleton once per page, lazily, at the installed version', () => {
    const shared = sharedSingletons(MAP_DIR);
    expect(Object.keys(shared)).toEqual([...SHARED_SINGLETONS]);
    for (const config of Object.values(shared)) {
      expect(config).toMatchObject({ singleton: true, eager: false });
      expect(config.requiredVersion).toMatch(/^\^\d+\.\d+\.\d+/);
    }
    expect(shared.react?.requiredVersion).toBe(shared['react/jsx-runtime']?.requiredVersion);
    expect(shared['react-dom/client']?.requiredVersion).toBe(shared['react-dom']?.requiredVersion);
  });

  it('shares react-router as the module of its used exports, under the package version', () => {
    const router = sharedSingletons(MAP_DIR)['react-router'];
    expect(router).toMatchObject({ singleton: true, import: reactRouterExportsModule(MAP_DIR) });
    expect(router?.requiredVersion).toBe(`^${router?.version}`);
  });

  it('names a missing package instead of guessing a version', () => {
    expect(() => sharedSingletons('/')).toThrow(/react is not installed/);
  });
});

describe('createAppConfig', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('builds for any origin into the app dist with hashed names', () => {
    vi.stubEnv('MF_OUT_DIR', '');
    const config = createAppConfig({ name: 'mf_map', appDir: MAP_DIR, exposes: { './app': './src/app.tsx' } });
    expect(config.mode).toBe('production');
    expect(config.output).toMatchObject({
      path: path.join(MAP_DIR, 'dist'),
      publicPath: 'auto',
      clean: true,
      filename: '[name].[contenthash:8].js',
      chunkFilename: '[name].[contenthash:8].js',
    });
  });

  it('writes to MF_OUT_DIR when it is set', () => {
    vi.stubEnv('MF_OUT_DIR', '/tmp/mf-map-b');
    const config = createAppConfig({ name: 'mf_map', appDir: MAP_DIR, exposes: { './app': './src/app.tsx' } });
    expect(config.output?.path).toBe('/tmp/mf-map-b');
  });

  it('builds for the dev server with MF_DEV=1: hot updates, React Refresh, no hashes, no compressed copies', () => {
    vi.stubEnv('MF_DEV', '1');
    vi.stubEnv('MF_OUT_DIR', '/tmp/mf-map-dev');
    const config = createAppConfig({ name: 'mf_map', appDir: MAP_DIR, exposes: { './app': './src/app.tsx' } });
    expect(config.mode).toBe('development');
    expect(config.output).toMatchObject({ path: '/tmp/mf-map-dev', publicPath: 'auto', filename: '[name].js' });
    const plugins = (config.plugins ?? []).map((plugin) => plugin?.constructor.name);
    expect(plugins).toEqual(expect.arrayContaining(['HotModuleReplacementPlugin', 'ReactRefreshRspackPlugin']));
    expect(plugins).not.toEqual(expect.arrayContaining(['PrecompressPlugin', 'BuildInputsPlugin']));
  });
});

describe("a dev build's shared singletons", () => {
  it('meet every requirement of a release build, under keys of their own', () => {
    const release = sharedSingletons(MAP_DIR);
    const dev = sharedSingletons(MAP_DIR, { dev: true });
    for (const key of SHARED_SINGLETONS) {
      expect(dev[key]?.requiredVersion).toBe(release[key]?.requiredVersion);
      expect(dev[key]?.version).toBe(`${release[key]?.requiredVersion?.slice(1)}${DEV_SHARED_VERSION_SUFFIX}`);
    }
  });
});
