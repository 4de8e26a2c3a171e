import {
  type ChromeRender,
  matchPageRoute,
  type PageData,
  REMOTES,
  type RemoteName,
  SERVER_RENDER_FILE,
  SERVER_RENDERED_ATTRIBUTE,
  SERVER_SHARED_GLOBAL,
  SERVER_SHARED_MODULES,
  type ServerChunks,
  type ServerRender,
} from '@lakecams/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { readFile, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { escapeHtml } from './page-meta.ts';

/**
 * Pages rendered on the server (docs/decisions.md, "Pages rendered on the server"): the open page's remote renders
 * it with its server build, found beside the manifest `/remotes.json` names, and the page's HTML carries the markup
 * the remote then hydrates. Any failure leaves the page to the browser, as before.
 */

/** A stylesheet of the page: its URL, and its rules when they can go into the page itself. */
export interface PageStylesheet {
  url: string;
  /** Rules without relative URLs or anything that could close a `<style>`, inlined instead of linked. */
  css?: string;
}

/** The page's markup from its remote, and the stylesheets the remote's exposed module brings. */
export interface ServerRendering {
  remote: RemoteName;
  /** The path it was rendered for: the remote hydrates only there. */
  path: string;
  markup: string;
  stylesheets: PageStylesheet[];
}

export type ServerRenderer = (
  url: string,
  manifests: Record<string, string>,
  data: PageData,
  log: FastifyBaseLogger,
) => Promise<ServerRendering | null>;

/** What the server build imports from the gateway: these modules as this process has them. */
const SHARED_MODULES: Record<(typeof SERVER_SHARED_MODULES)[number], () => Promise<unknown>> = {
  react: () => import('react'),
  'react/jsx-runtime': () => import('react/jsx-runtime'),
  'react-dom': () => import('react-dom'),
  'react-dom/client': () => import('react-dom/client'),
  'react-dom/server': () => import('react-dom/server'),
  'react-router': () => import('react-router'),
};

let sharedModules: Promise<void> | undefined;

/** Puts the shared modules where server builds look for them, once per process. */
function provideSharedModules(): Promise<void> {
  sharedModules ??= (async () => {
    const entries = await Promise.all(
      SERVER_SHARED_MODULES.map(async (id) => {
        const namespace = (await SHARED_MODULES[id]()) as Record<string, unknown>;
        // A CommonJS package (React) is its module.exports, as the bundle would have required it.
        return [id, 'module.exports' in namespace ? namespace.default : namespace] as const;
      }),
    );
    (globalThis as Record<string, unknown>)[SERVER_SHARED_GLOBAL] = Object.fromEntries(entries);
  })();
  return sharedModules;
}

/** The module every remote exposes (libs/mf-config REMOTE_APP_MODULE), whose stylesheets the page needs. */
const REMOTE_APP_MODULE = './app';

const SAFE_SEGMENT = /^(?!\.\.?$)[\w.-]+$/;

/**
 * The folder on disk of a build this gateway serves, from its manifest URL: `/remotes/<folder>/…` is
 * `<root>/<folder>/dist/…`, `/releases/…` is `<root>/releases/…`. Null for anything else: code from another
 * origin runs in visitors' browsers, never in the gateway.
 */
export function localBuildDir(manifestUrl: string, frontendRoot: string): string | null {
  const segments = manifestUrl.split('/');
  if (segments.shift() !== '' || segments.pop() !== 'mf-manifest.json') return null;
  if (segments.length === 0 || !segments.every((segment) => SAFE_SEGMENT.test(segment))) return null;
  const [top, ...rest] = segments;
  if (top === 'remotes' && rest.length === 1 && REMOTES.some((remote) => remote.folder === rest[0]))
    return join(frontendRoot, rest[0] as string, 'dist');
  if (top === 'releases' && rest.length > 0) return join(frontendRoot, 'releases', ...rest);
  return null;
}

/** The part of a file's identity that changes when a build replaces it. */
async function fileVersion(file: string): Promise<string | null> {
  const info = await stat(file).catch(() => null);
  return info ? `${info.ino}-${info.mtimeMs}-${info.size}` : null;
}

interface LoadedBuild {
  version: string;
  render: Promise<ServerRender>;
  /** The chunks of the page rendered, when the build tells (contracts ServerChunks). */
  chunks: Promise<ServerChunks>;
  stylesheets: Promise<Stylesheets>;
}

interface Manifest {
  exposes?: { path?: string; assets?: { css?: { sync?: string[]; async?: string[] } } }[];
}

/** The exposed module's own stylesheets, and those of its lazy chunks by file name, beside its manifest. */
interface Stylesheets {
  sync: PageStylesheet[];
  async: (PageStylesheet & { file: string })[];
}

const LOCAL_FILE = (file: string) => !/^[a-z]+:|^\/\/|\.\./i.test(file);
/** Larger ones are linked: they would weigh on every page's HTML more than a request costs. */
const INLINE_CSS_LIMIT = 32 * 1024;

/** A built stylesheet with its rules when they may be inlined: small, no `url(…)` relative to the file, no `</`. */
async function pageStylesheet(dir: string, base: string, file: string): Promise<PageStylesheet> {
  const css = await readFile(join(dir, file), 'utf8').catch(() => null);
  const inlinable = css !== null && css.length <= INLINE_CSS_LIMIT && !/url\(|<\//i.test(css);
  return inlinable ? { url: base + file, css } : { url: base + file };
}

/** The stylesheets of the remote's exposed module (`./app`). */
async function stylesheetsOf(dir: string, manifestUrl: string): Promise<Stylesheets> {
  const manifest = JSON.parse(await readFile(join(dir, 'mf-manifest.json'), 'utf8')) as Manifest;
  const css = manifest.exposes?.find((expose) => expose.path === REMOTE_APP_MODULE)?.assets?.css;
  const base = manifestUrl.slice(0, manifestUrl.lastIndexOf('/') + 1);
  const read = (files: string[] = []) =>
    Promise.all(files.filter(LOCAL_FILE).map(async (file) => ({ file, ...(await pageStylesheet(dir, base, file)) })));
  return { sync: await read(css?.sync), async: await read(css?.async) };
}

/** A chunk's stylesheet is named `<chunk>.<content hash>.css` (libs/mf-config). */
const stylesheetOfChunk = (file: string, chunk: string) =>
  file.startsWith(`${chunk}.`) && /^\.[0-9a-f]{8,}\.css$/.test(file.slice(chunk.length));

/** The function `name` of a server build, imported with the shared modules in place. */
async function importExport<T>(file: string, version: string, name: string): Promise<T> {
  await provideSharedModules();
  // The version in the URL: Node keeps a module for good, and a build rebuilt in place is a new one.
  const module = (await import(`${pathToFileURL(file).href}?v=${encodeURIComponent(version)}`)) as Record<
    string,
    unknown
  >;
  if (typeof module[name] !== 'function') throw new Error(`${file} exports no ${name} function`);
  return module[name] as T;
}

const importRender = (file: string, version: string) => importExport<ServerRender>(file, version, 'render');
// A build without `chunks` (it renders no lazy page) needs only the module's own stylesheets.
const importChunks = (file: string, version: string) =>
  importExport<ServerChunks>(file, version, 'chunks').catch((): ServerChunks => () => []);

/**
 * Renders a page with its remote's server build. A build is loaded once per manifest URL and file version, so a
 * release or rollback (a new manifest URL) takes effect at the next page; an error loading or rendering is logged
 * and answers null (the page then renders in the browser).
 */
export function createServerRenderer(frontendRoot: string): ServerRenderer {
  const builds = new Map<string, LoadedBuild>();

  async function buildFor(manifestUrl: string, log: FastifyBaseLogger): Promise<LoadedBuild | null> {
    const dir = localBuildDir(manifestUrl, frontendRoot);
    if (!dir || !(dir + sep).startsWith(join(frontendRoot, sep))) return null;
    const file = join(dir, SERVER_RENDER_FILE);
    const version = await fileVersion(file);
    if (!version) return null;
    const known = builds.get(manifestUrl);
    if (known?.version === version) return known;
    const build: LoadedBuild = {
      version,
      render: importRender(file, version),
      chunks: importChunks(file, version),
      stylesheets: stylesheetsOf(dir, manifestUrl),
    };
    // Reported once per build; every page of it then renders in the browser.
    Promise.all([build.render, build.stylesheets]).catch((error: unknown) =>
      log.error(
        { err: error, manifestUrl },
        'the server build of a remote cannot be loaded; its pages render in the browser',
      ),
    );
    builds.set(manifestUrl, build);
    return build;
  }

  return async (url, manifests, data, log) => {
    const path = url.split('?')[0] ?? '';
    const remote = matchPageRoute(path)?.remote;
    const manifestUrl = remote ? manifests[remote] : undefined;
    if (!remote || !manifestUrl) return null;
    try {
      const build = await buildFor(manifestUrl, log);
      if (!build) return null;
      const [render, chunksOf, stylesheets] = await Promise.all([build.render, build.chunks, build.stylesheets]).catch(
        () => [null, null, null] as const,
      );
      if (!render || !chunksOf || !stylesheets) return null;
      const markup = render(url, data);
      if (typeof markup !== 'string') return null;
      const chunks = chunksOf(url);
      const lazy = stylesheets.async.filter(({ file }) => chunks.some((chunk) => stylesheetOfChunk(file, chunk)));
      const sheet = ({ url, css }: PageStylesheet): PageStylesheet => (css === undefined ? { url } : { url, css });
      return { remote, path, markup, stylesheets: [...stylesheets.sync, ...lazy].map(sheet) };
    } catch (error) {
      log.error({ err: error, remote, url }, 'server rendering failed; the page renders in the browser');
      return null;
    }
  };
}

/**
 * The page with the remote's rendering in `<main>`, in the container the shell would make for it (shell
 * remote-apps.ts), and its stylesheets in the head (inlined where they may be); the page unchanged when it has no
 * empty `<main>`.
 */
export function withServerRendering(html: string, rendering: ServerRendering): string {
  const main = /<main id="main"([^>]*)><\/main>/i;
  if (!main.test(html)) return html;
  const container =
    `<div id="remote-${rendering.remote}" class="remote-outlet" ${SERVER_RENDERED_ATTRIBUTE}="${escapeHtml(rendering.path)}">` +
    `${rendering.markup}</div>`;
  // Inlined rules paint with the page's first bytes; the remote's own loading of the file later changes nothing.
  const links = rendering.stylesheets
    .map(({ url, css }) =>
      css === undefined
        ? `<link rel="stylesheet" href="${escapeHtml(url)}">`
        : `<style data-href="${escapeHtml(url)}">${css}</style>`,
    )
    .join('');
  return html
    .replace(main, (_all, attributes: string) => `<main id="main"${attributes}>${container}</main>`)
    .replace(/<\/head>/i, () => `${links}</head>`);
}

/** The chrome's markup for the two containers around `<main>`. */
export type ChromeRenderer = (
  path: string,
  data: PageData,
  visitor: Parameters<ChromeRender>[2],
  log: FastifyBaseLogger,
) => Promise<ReturnType<ChromeRender> | null>;

/**
 * Renders the shell's chrome with the shell's server build (`<shellDir>/server/render.mjs`), loaded again when it
 * was rebuilt; null (the chrome renders in the browser) when there is none or it fails.
 */
export function createChromeRenderer(shellDir: string): ChromeRenderer {
  const file = join(shellDir, SERVER_RENDER_FILE);
  let loaded: { version: string; render: Promise<ChromeRender> } | null = null;
  return async (path, data, visitor, log) => {
    const version = await fileVersion(file);
    if (!version) return null;
    if (loaded?.version !== version) {
      const render = importExport<ChromeRender>(file, version, 'renderChrome');
      render.catch((error: unknown) =>
        log.error({ err: error, file }, "the shell's server build cannot be loaded; the chrome renders in the browser"),
      );
      loaded = { version, render };
    }
    try {
      return (await loaded.render)(path, data, visitor);
    } catch (error) {
      log.error({ err: error, path }, 'rendering the chrome failed; it renders in the browser');
      return null;
    }
  };
}

/** The page with the chrome rendered into `#shell-header` and `#shell-footer`, marked for the path it shows. */
export function withChromeRendering(html: string, path: string, chrome: ReturnType<ChromeRender>): string {
  const mark = `${SERVER_RENDERED_ATTRIBUTE}="${escapeHtml(path)}"`;
  return html
    .replace(/<div id="shell-header"><\/div>/i, () => `<div id="shell-header" ${mark}>${chrome.header}</div>`)
    .replace(/<div id="shell-footer"><\/div>/i, () => `<div id="shell-footer" ${mark}>${chrome.footer}</div>`);
}
