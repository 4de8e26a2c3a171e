import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { type Compiler, type Configuration, type RspackPluginInstance, rspack } from '@rspack/core';
import { ReactRefreshRspackPlugin } from '@rspack/plugin-react-refresh';
import { SERVER_RENDER_FILE, SERVER_SHARED_GLOBAL, SERVER_SHARED_MODULES } from '@lakecams/contracts';
import { BuildInputsPlugin } from './build-inputs.ts';
import { FederationRuntimeEsmPlugin } from './federation-runtime-esm.ts';
import { PrecompressPlugin } from './precompress.ts';
import { reactRouterExportsModule, SharedExportsPlugin } from './shared-exports.ts';

/** Module Federation names of the apps (snake_case: they become JavaScript identifiers). */
export const MF_NAMES = ['shell', 'mf_map', 'mf_account', 'mf_admin'] as const;
export type MfName = (typeof MF_NAMES)[number];

/** What a remote exposes: single-spa lifecycles (bootstrap, mount, unmount). */
export const REMOTE_APP_MODULE = './app';

/**
 * One instance of each per page. Deep imports need their own keys, or a remote silently
 * downloads a second React DOM (docs/architecture.md, "Module Federation: what to keep in mind").
 */
export const SHARED_SINGLETONS = [
  'react',
  'react/jsx-runtime',
  'react-dom',
  'react-dom/client',
  'react-router',
  '@lakecams/session',
] as const;

interface SharedSingleton {
  singleton: true;
  requiredVersion: string;
  eager: false;
  /** The module provided under the key, when it is not the package itself. */
  import?: string;
  /** The package's version, which a provided module outside the package cannot tell. */
  version?: string;
}

/**
 * What a dev build's shared singletons are offered as: the same version, so every requirement is met, under another
 * key in the share scope than the release build's. Of equal versions, Module Federation takes the one registered
 * last while none is loaded, so a page whose shell waits for a dev remote before its first render (shell
 * remote-overrides.ts) runs on the dev remote's React: the development build, which React Refresh needs.
 */
export const DEV_SHARED_VERSION_SUFFIX = '+dev';

/** The shared-module config every app uses, with versions read from the installed packages. */
export function sharedSingletons(appDir: string, options: { dev?: boolean } = {}): Record<string, SharedSingleton> {
  const shared: Record<string, SharedSingleton> = {};
  for (const key of SHARED_SINGLETONS) {
    const version = installedVersion(packageNameOf(key), appDir);
    shared[key] = { singleton: true, requiredVersion: `^${version}`, eager: false };
    if (options.dev) shared[key].version = `${version}${DEV_SHARED_VERSION_SUFFIX}`;
    // Only the exports the apps use (REACT_ROUTER_EXPORTS), still one instance per page.
    if (key === 'react-router')
      Object.assign(shared[key], { import: reactRouterExportsModule(appDir), version: shared[key].version ?? version });
  }
  return shared;
}

function packageNameOf(shareKey: string): string {
  const parts = shareKey.split('/');
  return shareKey.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? shareKey);
}

/** Walks up node_modules like Node's resolver; reads package.json directly because not every package exports it. */
function installedVersion(packageName: string, fromDir: string): string {
  let dir = path.resolve(fromDir);
  for (;;) {
    const manifest = path.join(dir, 'node_modules', packageName, 'package.json');
    try {
      const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string };
      if (version) return version;
    } catch {
      // not installed at this level: keep walking up
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`Shared singleton ${packageName} is not installed (looked from ${fromDir})`);
    dir = parent;
  }
}

export interface AppConfigOptions {
  name: MfName;
  /** The app's folder, usually `import.meta.dirname` of its rspack.config.ts. */
  appDir: string;
  /** Entry modules; remotes have none, their container is the entry. */
  entry?: Record<string, string>;
  /** Modules a remote exposes, e.g. `{ './app': './src/app.tsx' }`. */
  exposes?: Record<string, string>;
  /** Compile-time constants for DefinePlugin (values are code, so JSON.stringify strings). */
  define?: Record<string, string>;
  plugins?: RspackPluginInstance[];
}

/** Set to `1` by scripts/dev.ts: the app is built for its dev server, not for release. */
export const DEV_BUILD_VARIABLE = 'MF_DEV';

/** Bundled into every entry of a dev build: applies the dev server's rebuilds as hot updates. */
const DEV_CLIENT = path.join(import.meta.dirname, 'dev-client.ts');
/** `react-refresh/runtime` of a dev build: the page's one runtime, shared by the shell and the remotes. */
const REFRESH_RUNTIME = path.join(import.meta.dirname, 'refresh-runtime.cjs');

/** Points `react-refresh/runtime` at REFRESH_RUNTIME, except from that module itself (the React Refresh plugin's alias would win). */
class SharedRefreshRuntimePlugin implements RspackPluginInstance {
  apply(compiler: Compiler) {
    compiler.hooks.normalModuleFactory.tap('SharedRefreshRuntimePlugin', (factory) => {
      factory.hooks.beforeResolve.tap('SharedRefreshRuntimePlugin', (data) => {
        if (data.request === 'react-refresh/runtime' && data.contextInfo.issuer !== REFRESH_RUNTIME) {
          data.request = REFRESH_RUNTIME;
        }
      });
    });
  }
}

/** Drops a CSS import: the server renders markup only; the page links the remote's stylesheets. */
const NO_CSS_LOADER = path.join(import.meta.dirname, 'no-css-loader.cjs');

/** TypeScript and TSX through SWC (React Refresh only where asked), CSS through Rspack's built-in CSS support. */
function moduleRules(options: {
  dev: boolean;
  refresh: boolean;
  css?: 'bundle' | 'drop';
}): NonNullable<Configuration['module']> {
  return {
    rules: [
      {
        test: /\.tsx?$/,
        exclude: /node_modules/,
        loader: 'builtin:swc-loader',
        options: {
          jsc: {
            target: 'es2022',
            parser: { syntax: 'typescript', tsx: true },
            transform: { react: { runtime: 'automatic', development: options.dev, refresh: options.refresh } },
          },
        },
        type: 'javascript/auto',
      },
      options.css === 'drop'
        ? { test: /\.css$/, loader: NO_CSS_LOADER, type: 'javascript/auto' }
        : { test: /\.css$/, type: 'css' },
    ],
  };
}

/**
 * The Rspack configuration shared by the shell and every remote. Output goes to `dist/` or to
 * `MF_OUT_DIR`; `publicPath: 'auto'` lets a build be served from any origin and folder.
 * With `MF_DEV=1` it is a dev build: hot updates with React Refresh, no hashes, no compressed copies.
 */
export function createAppConfig(options: AppConfigOptions): Configuration {
  const isRemote = options.exposes !== undefined;
  const dev = process.env[DEV_BUILD_VARIABLE] === '1';
  const outDir = process.env.MF_OUT_DIR ? path.resolve(process.env.MF_OUT_DIR) : path.join(options.appDir, 'dist');
  const plugins: RspackPluginInstance[] = [
    new ModuleFederationPlugin({
      name: options.name,
      filename: 'remoteEntry.js',
      exposes: options.exposes ?? {},
      shared: sharedSingletons(options.appDir, { dev }),
      manifest: true,
      // A page loads the entries of the remotes it shows, not of all of them to compare versions: the repository
      // has one version of each shared package (`version-first` fetched three remoteEntry.js files on every page).
      shareStrategy: 'loaded-first',
      // Types come from the workspace packages; generating them costs seconds per build.
      dts: false,
      // The shell ships the federation runtime once; remotes use it (remoteEntry.js: 33 → 16 KiB gzip).
      // So a remote loads only into a host built with this config, which is the only way we load them.
      experiments: {
        ...(isRemote ? { externalRuntime: true } : { provideExternalRuntime: true }),
        // Pages only: the runtime drops its Node.js loading paths.
        optimization: { target: 'web' },
      },
    }),
    new FederationRuntimeEsmPlugin(),
    new SharedExportsPlugin(options.appDir),
    ...(options.plugins ?? []),
    ...(dev
      ? [
          new rspack.HotModuleReplacementPlugin(),
          new ReactRefreshRspackPlugin({ exclude: { or: [/[\\/]node_modules[\\/]/, DEV_CLIENT, REFRESH_RUNTIME] } }),
          new SharedRefreshRuntimePlugin(),
          // A global entry: bundled into the container entry of a remote too, which has no entry of its own.
          new rspack.EntryPlugin(options.appDir, DEV_CLIENT, { name: undefined }),
        ]
      : [new PrecompressPlugin(), new BuildInputsPlugin(path.dirname(options.appDir), path.basename(options.appDir))]),
  ];
  if (options.define) plugins.push(new rspack.DefinePlugin(options.define));
  const hashed = dev ? '' : '.[contenthash:8]';

  return {
    name: options.name,
    mode: dev ? 'development' : 'production',
    context: options.appDir,
    entry: options.entry ?? {},
    target: ['web', 'es2022'],
    output: {
      path: outDir,
      publicPath: 'auto',
      // A dev build keeps earlier hot updates: a page a few rebuilds behind applies them in turn.
      clean: !dev,
      uniqueName: options.name,
      filename: `[name]${hashed}.js`,
      chunkFilename: `[name]${hashed}.js`,
      cssFilename: `[name]${hashed}.css`,
      cssChunkFilename: `[name]${hashed}.css`,
    },
    resolve: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
    module: moduleRules({ dev, refresh: dev }),
    plugins,
    devtool: dev ? 'cheap-module-source-map' : 'source-map',
    performance: { hints: false },
  };
}

export interface PageConfigOptions {
  /** The remote whose build the page sits beside. */
  beside: Configuration;
  name: string;
  entry: Record<string, string>;
  /** The page's folder inside the remote's build. */
  folder: string;
}

/**
 * A page of its own in a folder of a remote's build, for a document no shell hosts (e.g. a frame): no federated
 * module, so it brings its own React. A dev build is rebuilt on every change, without hot updates (a reload shows it).
 * Its entry file keeps its name, for the document that asks for it; what it loads is content-hashed.
 */
export function createPageConfig(options: PageConfigOptions): Configuration {
  const { beside } = options;
  const dev = process.env[DEV_BUILD_VARIABLE] === '1';
  return {
    name: options.name,
    // After the remote, whose build empties the output folder first.
    dependencies: typeof beside.name === 'string' ? [beside.name] : [],
    mode: beside.mode,
    context: beside.context,
    target: beside.target,
    resolve: beside.resolve,
    module: moduleRules({ dev, refresh: false }),
    devtool: beside.devtool,
    performance: beside.performance,
    entry: options.entry,
    output: {
      path: path.join(beside.output?.path as string, options.folder),
      publicPath: 'auto',
      clean: true,
      uniqueName: `${beside.output?.uniqueName ?? beside.name}_${options.name.replaceAll('-', '_')}`,
      filename: '[name].js',
      chunkFilename: dev ? '[name].js' : '[name].[contenthash:8].js',
      cssChunkFilename: dev ? '[name].css' : '[name].[contenthash:8].css',
    },
    plugins: dev ? [] : [new PrecompressPlugin()],
  };
}

export interface ServerConfigOptions {
  /** The remote's browser build, whose output folder gets the server build in `server/`. */
  beside: Configuration;
  /** The module exporting `render` (contracts ServerRender), e.g. `./src/server.tsx`. */
  entry: string;
  /** The same compile-time constants as the browser build: the server must render what the browser renders. */
  define?: Record<string, string>;
}

/**
 * A remote's server build (docs/decisions.md, "Pages rendered on the server"): `render.mjs` in `server/` beside the
 * browser build, so a release or rollback switches both. One ES module for Node (lazy pages included: the gateway
 * imports the one file, from disk), CSS dropped, and React, React DOM and react-router taken from the gateway
 * (SERVER_SHARED_MODULES). None for a dev build: the gateway renders no page of a dev server's remote.
 */
export function createServerConfigs(options: ServerConfigOptions): Configuration[] {
  if (process.env[DEV_BUILD_VARIABLE] === '1') return [];
  const { beside } = options;
  if (typeof beside.name !== 'string') throw new Error('createServerConfigs: the browser build needs a name');
  const name = `${beside.name}-server`;
  return [
    {
      name,
      // After the browser build, which empties the output folder first.
      dependencies: [beside.name],
      mode: 'production',
      context: beside.context,
      target: ['node24', 'es2022'],
      entry: { render: options.entry },
      output: {
        path: path.join(beside.output?.path as string, path.dirname(SERVER_RENDER_FILE)),
        filename: path.basename(SERVER_RENDER_FILE),
        module: true,
        chunkFormat: 'module',
        library: { type: 'module' },
        clean: true,
        uniqueName: name.replaceAll('-', '_'),
      },
      externalsType: 'var',
      externals: Object.fromEntries(SERVER_SHARED_MODULES.map((id) => [id, [SERVER_SHARED_GLOBAL, id]])),
      resolve: beside.resolve,
      module: {
        rules: [
          ...(moduleRules({ dev: false, refresh: false, css: 'drop' }).rules ?? []),
          // The packages' source map comments would name files that are not beside render.mjs.
          { test: /\.[cm]?js$/, extractSourceMap: true },
        ],
        // The browser build has the files. (A picture's URL is not the browser's: no server-rendered page shows one yet.)
        generator: { asset: { emit: false }, 'asset/resource': { emit: false } },
      },
      plugins: [
        // Lazy pages too: the gateway loads this one file.
        new rspack.optimize.LimitChunkCountPlugin({ maxChunks: 1 }),
        ...(options.define ? [new rspack.DefinePlugin(options.define)] : []),
      ],
      // Readable in the gateway's stack traces.
      optimization: { minimize: false },
      devtool: false,
      performance: { hints: false },
    },
  ];
}

export { BUILD_INPUTS_FILE, buildInputsHash, recordedBuildInputs } from './build-inputs.ts';
export { PrecompressPlugin, precompressFolder } from './precompress.ts';
