import fastifyStatic from '@fastify/static';
import {
  CAMERA_LIST_PAGES,
  type CameraListItem,
  cookieNoticeAccepted,
  matchPageRoute,
  NEWS_PATH,
  PAGE_DATA_IDS,
  PAGE_START_CALLS,
  type PageData,
  REMOTES,
} from '@lakecams/contracts';
import { errorBody, unavailable } from '@lakecams/service-kit';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import {
  cameraOfPage,
  cameraPageMeta,
  createCameraLookup,
  type FirstViewPicture,
  firstViewPicture,
  sitePageMeta,
  withFirstView,
  withPageData,
  withPageMeta,
  withTilePreconnect,
} from './page-meta.ts';
import {
  contentSecurityPolicy,
  newNonce,
  type PolicySources,
  wantsDevSources,
  withScriptNonce,
} from '../security-headers.ts';
import {
  createChromeRenderer,
  createServerRenderer,
  withChromeRendering,
  withServerRendering,
} from './server-render.ts';

export interface FrontendsOptions {
  /** Folder holding `shell/dist` and `<remote>/dist` (the repository root by default). */
  frontendRoot: string;
  /** Remote name → URL of its `mf-manifest.json`, served as `/remotes.json`. */
  remotes: Record<string, string>;
  /** Satellite tiles for the map, served to the page as `/config.json`. */
  mapTiles?: { url: string; attribution: string };
  /** The site's address for absolute links in share previews (`PUBLIC_URL`); the request's host otherwise. */
  publicUrl?: string;
  /** Where the shell's own server answers, when this gateway serves no shell build (Kubernetes: its Service). */
  shellUrl?: string;
  /** Origins besides the visitor's machine a developer's browser may load remotes from (`DEV_REMOTE_ORIGINS`). */
  devRemoteOrigins?: string[];
}

export const DEFAULT_MAP_TILES = {
  url: 'https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}',
  attribution: 'Tiles &copy; Esri &mdash; Source: Esri, Maxar, Earthstar Geographics, and the GIS User Community',
};

/** Default manifest locations: each remote under `/remotes/<folder>/`. */
export function defaultRemoteManifests(): Record<string, string> {
  return Object.fromEntries(REMOTES.map((r) => [r.name, `/remotes/${r.folder}/mf-manifest.json`]));
}

// Hashed chunks never change; entry files and manifests must be revalidated so a redeploy shows at once.
function cacheHeaders(reply: FastifyReply, path: string) {
  const file = path.split('/').pop() ?? '';
  const hashed = /\.[0-9a-f]{8,}\.(js|css)$/.test(file);
  reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
}

/** The shell's index.html from its own server, asked again at most every 10 s (a redeploy shows soon). */
function shellPageFrom(url: URL, ttlMs = 10_000): () => Promise<string> {
  let page: { html: string; at: number } | null = null;
  return async () => {
    if (page && Date.now() - page.at < ttlMs) return page.html;
    try {
      const answer = await fetch(url, { signal: AbortSignal.timeout(3000) });
      if (!answer.ok) throw new Error(`${url} answered ${answer.status}`);
      page = { html: await answer.text(), at: Date.now() };
    } catch (error) {
      // The last page served is better than none while the shell restarts.
      if (!page) return unavailable('The page cannot be loaded right now, please retry')(error);
    }
    return page.html;
  };
}

/**
 * The manifests of released remotes, read again whenever the file changed: a release renames a new file in,
 * so a reader sees the old one or the new one.
 */
function releasedRemotes(file: string) {
  let known: { version: string; remotes: Record<string, string> } | null = null;
  return async (log: FastifyBaseLogger): Promise<Record<string, string>> => {
    const info = await stat(file).catch(() => null);
    if (!info) return {};
    // A renamed-in file is a new inode, whatever the clock's resolution.
    const version = `${info.ino}:${info.mtimeMs}:${info.size}`;
    if (known?.version === version) return known.remotes;
    try {
      const remotes = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
      known = { version, remotes };
      return remotes;
    } catch (error) {
      log.warn({ err: error, file }, 'released remotes not readable; serving the built ones');
      return known?.remotes ?? {};
    }
  };
}

/** What `/remotes.json` answers: the configured manifests with the released ones (scripts/release.ts) over them. */
export type RemoteManifestSource = (log: FastifyBaseLogger) => Promise<Record<string, string>>;

export function remoteManifestSource(
  options: Pick<FrontendsOptions, 'frontendRoot' | 'remotes'>,
): RemoteManifestSource {
  const released = releasedRemotes(join(options.frontendRoot, 'releases', 'remotes.json'));
  return async (log) => ({ ...options.remotes, ...(await released(log)) });
}

/**
 * A page's HTML compressed for the wire when the browser takes it (Brotli, else gzip): a page now carries its
 * rendering, styles and start data, and on a phone's network every kilobyte before the first paint counts. Quick
 * settings: it is made anew for every answer (its nonce differs).
 */
export function compressedPage(
  html: string,
  acceptEncoding: string | undefined,
): { body: string | Buffer; encoding?: 'br' | 'gzip' } {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !q || Number(q.split('=')[1]) > 0)
      .map(([name]) => name?.trim().toLowerCase()),
  );
  if (accepted.has('br'))
    return {
      body: brotliCompressSync(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }),
      encoding: 'br',
    };
  if (accepted.has('gzip')) return { body: gzipSync(html, { level: 6 }), encoding: 'gzip' };
  return { body: html };
}

/** Serves the shell at `/`, each remote under `/remotes/<folder>/`, `/remotes.json`, and the SPA fallback. */
export async function frontendsPlugin(
  app: FastifyInstance,
  options: FrontendsOptions & {
    remoteManifests: RemoteManifestSource;
    /** What the page's Content-Security-Policy allows for this request (security-headers.ts). */
    policySources: (request: FastifyRequest) => Promise<PolicySources>;
  },
) {
  const shellDir = join(options.frontendRoot, 'shell', 'dist');
  const hasShell = existsSync(join(shellDir, 'index.html'));
  if (hasShell) {
    await app.register(fastifyStatic, {
      root: shellDir,
      prefix: '/',
      wildcard: false,
      index: false,
      // Builds ship .br/.gz copies; the right one is sent by Accept-Encoding, nothing is compressed per request.
      preCompressed: true,
      setHeaders: (reply, path) => cacheHeaders(reply as unknown as FastifyReply, path),
    });
  } else {
    app.log.warn({ shellDir }, 'shell is not built: run `npm run build`');
  }
  for (const remote of REMOTES) {
    const root = join(options.frontendRoot, remote.folder, 'dist');
    if (!existsSync(root)) continue;
    await app.register(fastifyStatic, {
      root,
      prefix: `/remotes/${remote.folder}/`,
      preCompressed: true,
      decorateReply: !hasShell && remote === REMOTES[0],
      setHeaders: (reply, path) => {
        const fastifyReply = reply as unknown as FastifyReply;
        cacheHeaders(fastifyReply, path);
        // Remotes may be loaded by a shell on another origin; the manifest is fetched with fetch().
        fastifyReply.header('access-control-allow-origin', '*');
      },
    });
  }

  // Run-time settings of the page, so one build serves every deployment.
  const pageConfig = {
    mapTiles: options.mapTiles ?? DEFAULT_MAP_TILES,
    ...(options.devRemoteOrigins?.length ? { devRemoteOrigins: options.devRemoteOrigins } : {}),
  };
  app.get('/config.json', { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(pageConfig),
  );

  // Remotes released on their own (scripts/release.ts): versioned folders, and the manifests to use.
  const releasesDir = join(options.frontendRoot, 'releases');
  // Made here, so a release after the start is served without a restart (a read-only root simply has none).
  await mkdir(releasesDir, { recursive: true }).catch(() => undefined);
  if (existsSync(releasesDir))
    await app.register(fastifyStatic, {
      root: releasesDir,
      prefix: '/releases/',
      preCompressed: true,
      decorateReply: false,
      setHeaders: (reply, path) => {
        const fastifyReply = reply as unknown as FastifyReply;
        cacheHeaders(fastifyReply, path);
        fastifyReply.header('access-control-allow-origin', '*');
      },
    });
  app.get('/remotes.json', { schema: { hide: true } }, async (request, reply) =>
    reply.header('cache-control', 'no-cache').send(await options.remoteManifests(request.log)),
  );

  // Cameras as the public camera list shows them, asked through this gateway like a browser would.
  const cameraNamed = createCameraLookup(async () => {
    const answer = await app.inject({ url: '/api/Webcam/GetImages' });
    return answer.statusCode === 200 ? (answer.json() as CameraListItem[]) : null;
  });
  const publicUrl = options.publicUrl?.replace(/\/+$/, '');
  const shellPage = hasShell
    ? () => readFile(join(shellDir, 'index.html'), 'utf8')
    : options.shellUrl
      ? shellPageFrom(new URL('index.html', options.shellUrl.replace(/\/*$/, '/')))
      : null;
  /** The camera list as `GET /api/Webcam/GetImages` answers it now (the same for every visitor). */
  async function cameraList(): Promise<unknown> {
    const answer = await app.inject({ url: '/api/Webcam/GetImages' });
    return answer.statusCode === 200 ? answer.json() : undefined;
  }

  /** The news below the header as an anonymous visitor gets it; undefined when it cannot be had now. */
  async function newsText(): Promise<string | undefined> {
    const answer = await app.inject({ url: NEWS_PATH }).catch(() => null);
    return answer?.statusCode === 200 ? answer.body : undefined;
  }

  /**
   * Where a picture's entitlement URL sends this visitor, in each format a browser may take (AVIF, WebP, JPEG), so
   * the page's HTML names the pictures themselves and the browser saves the redirect's round trip; the URL itself
   * when that cannot be had.
   */
  async function pictureFor(request: FastifyRequest, url: string | null): Promise<FirstViewPicture | null> {
    if (!url) return null;
    const cookie = request.headers.cookie;
    const target = async (accept: string) => {
      const answer = await app.inject({ url, headers: { accept, ...(cookie ? { cookie } : {}) } }).catch(() => null);
      const location = answer && answer.statusCode >= 300 && answer.statusCode < 400 ? answer.headers.location : null;
      // A path of this portal, or the pictures' own host (PICTURE_BASE_URL), which the page's policy allows.
      return typeof location === 'string' && /^(\/[^/\\]|https?:\/\/)/i.test(location) ? location : null;
    };
    const [avif, webp, jpeg] = await Promise.all(['image/avif', 'image/webp', 'image/jpeg'].map(target));
    if (!jpeg) return { src: url };
    return {
      src: jpeg,
      ...(avif && avif !== jpeg ? { avif } : {}),
      ...(webp && webp !== jpeg ? { webp } : {}),
    };
  }

  /** A public GET's JSON answer as an anonymous visitor gets it; undefined when it fails (the page asks itself). */
  async function publicAnswer(call: string): Promise<unknown> {
    const answer = await app.inject({ url: call }).catch(() => null);
    if (answer?.statusCode !== 200) return undefined;
    try {
      return answer.json();
    } catch {
      return undefined;
    }
  }

  /**
   * What the page's code would ask for first: the remote manifests on every page; the page settings and the camera
   * list where the cameras are shown. Written into its HTML, and handed to its server rendering.
   */
  async function startData(url: string, log: FastifyBaseLogger): Promise<PageData> {
    const { pathname: path, searchParams } = new URL(url, 'http://page.invalid');
    const route = matchPageRoute(path)?.route;
    const calls = route === undefined ? [] : (PAGE_START_CALLS[route]?.(searchParams) ?? []);
    const [manifests, news, answers] = await Promise.all([
      options.remoteManifests(log),
      newsText(),
      Promise.all(calls.map(async (call) => [call, await publicAnswer(call)] as const)),
    ]);
    const answered = answers.filter(([, answer]) => answer !== undefined);
    const data: PageData = {
      [PAGE_DATA_IDS.remoteManifests]: manifests,
      [PAGE_DATA_IDS.renderedAt]: Date.now(),
      ...(news === undefined ? {} : { [PAGE_DATA_IDS.news]: news }),
      ...(answered.length > 0 ? { [PAGE_DATA_IDS.answers]: Object.fromEntries(answered) } : {}),
    };
    if (!CAMERA_LIST_PAGES.includes(path)) return data;
    const cameras = await cameraList().catch(() => undefined);
    data[PAGE_DATA_IDS.pageConfig] = pageConfig;
    if (cameras !== undefined) data[PAGE_DATA_IDS.cameraList] = cameras;
    return data;
  }

  function withStartData(html: string, path: string, data: PageData): string {
    let page = html;
    for (const [id, value] of Object.entries(data)) page = withPageData(page, id, value);
    return path === '/' ? withTilePreconnect(page, pageConfig.mapTiles.url) : page;
  }

  const renderOnServer = createServerRenderer(options.frontendRoot);
  // Only the shell this gateway serves itself: one from elsewhere (Kubernetes' shell image) renders in the browser.
  const renderChrome = hasShell ? createChromeRenderer(shellDir) : null;

  /** The chrome in its containers, for a visitor who has or has not accepted the cookie notice. */
  async function withChrome(request: FastifyRequest, html: string, path: string, data: PageData): Promise<string> {
    const visitor = { cookieNoticeAccepted: cookieNoticeAccepted(request.headers.cookie) };
    const chrome = await renderChrome?.(path, data, visitor, request.log);
    return chrome ? withChromeRendering(html, path, chrome) : html;
  }

  /**
   * index.html with the page's description and share preview (crawlers run no JavaScript), and the page's first
   * view: a camera's picture, or the page as its remote renders it on the server.
   */
  async function pageHtml(request: FastifyRequest, path: string, page: () => Promise<string>): Promise<string> {
    const data = await startData(request.url, request.log);
    const html = withStartData(await page(), path, data);
    // Never the request's Host: a forged one would end up in share previews (relative links without PUBLIC_URL).
    const origin = publicUrl ?? '';
    const name = cameraOfPage(path);
    const camera = name ? await cameraNamed(name) : undefined;
    const chromed = await withChrome(request, html, path, data);
    if (camera) {
      const picture = await pictureFor(request, firstViewPicture(camera));
      return withFirstView(withPageMeta(chromed, cameraPageMeta(origin, camera)), camera, picture);
    }
    const described = withPageMeta(chromed, sitePageMeta(origin, path));
    // A browser on a developer's remote runs another build than the one this gateway would render with.
    if (wantsDevSources(request.url, request.headers.cookie)) return described;
    const manifests = (data[PAGE_DATA_IDS.remoteManifests] ?? {}) as Record<string, string>;
    const rendering = await renderOnServer(request.url, manifests, data, request.log);
    return rendering ? withServerRendering(described, rendering) : described;
  }

  // Unknown paths: JSON 404 for APIs and files, the shell's index.html for pages (the shell routes them).
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const looksLikePage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      path !== '/api' &&
      !path.startsWith('/api/') &&
      !/\.[a-z0-9]+$/i.test(path);
    if (looksLikePage && shellPage) {
      const nonce = newNonce();
      const html = withScriptNonce(await pageHtml(request, path, shellPage), nonce);
      const page = compressedPage(html, request.headers['accept-encoding']);
      if (page.encoding) reply.header('content-encoding', page.encoding);
      return reply
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding')
        .header('content-security-policy', contentSecurityPolicy(await options.policySources(request), { nonce }))
        .type('text/html; charset=utf-8')
        .send(page.body);
    }
    return reply.code(404).send(errorBody(404, `Route ${request.method} ${path} not found`));
  });
}
