import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SERVER_SHARED_GLOBAL, SERVER_SHARED_MODULES } from '@lakecams/contracts';
import {
  createAppConfig,
  createServerConfigs,
  DEV_SHARED_VERSION_SUFFIX,
  SHARED_SINGLETONS,
  sharedSingletons,
} from '../src/index.ts';
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

describe('createServerConfigs', () => {
  afterEach(() => vi.unstubAllEnvs());
  const define = { __LABEL__: '"B"' };

  it("builds one ES module for Node into server/ of the browser build's folder, after it", () => {
    vi.stubEnv('MF_OUT_DIR', '/tmp/mf-map-b');
    const remote = createAppConfig({ name: 'mf_map', appDir: MAP_DIR, exposes: { './app': './src/app.tsx' } });
    const [server, ...more] = createServerConfigs({ beside: remote, entry: './src/server.tsx', define });
    expect(more).toEqual([]);
    expect(server).toMatchObject({
      name: 'mf_map-server',
      dependencies: ['mf_map'],
      entry: { render: './src/server.tsx' },
      output: { path: '/tmp/mf-map-b/server', filename: 'render.mjs', module: true, library: { type: 'module' } },
    });
    expect(String(server?.target)).toMatch(/^node/);
    const plugins = (server?.plugins ?? []).map((plugin) => plugin?.constructor.name);
    expect(plugins).toEqual(expect.arrayContaining(['LimitChunkCountPlugin', 'DefinePlugin']));
  });

  it('takes React, React DOM and react-router from the gateway, and drops CSS', () => {
    const remote = createAppConfig({ name: 'mf_map', appDir: MAP_DIR, exposes: { './app': './src/app.tsx' } });
    const [server] = createServerConfigs({ beside: remote, entry: './src/server.tsx' });
    expect(server?.externalsType).toBe('var');
    expect(server?.externals).toEqual(
      Object.fromEntries(SERVER_SHARED_MODULES.map((id) => [id, [SERVER_SHARED_GLOBAL, id]])),
    );
    const css = server?.module?.rules?.find(
      (rule) => rule && typeof rule === 'object' && String(rule.test) === String(/\.css$/),
    );
    expect(css).toMatchObject({ type: 'javascript/auto' });
    expect(String((css as { loader?: string }).loader)).toMatch(/no-css-loader\.cjs$/);
  });

  it('makes none for a dev build: the gateway renders no page of a dev server', () => {
    vi.stubEnv('MF_DEV', '1');
    const remote = createAppConfig({ name: 'mf_map', appDir: MAP_DIR, exposes: { './app': './src/app.tsx' } });
    expect(createServerConfigs({ beside: remote, entry: './src/server.tsx' })).toEqual([]);
  });
});
