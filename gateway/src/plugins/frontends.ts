import fastifyStatic from '@fastify/static';
import { type CameraListItem, REMOTES } from '@lakecams/contracts';
import { errorBody } from '@lakecams/service-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cameraOfPage, cameraPageMeta, createCameraLookup, sitePageMeta, withPageMeta } from './page-meta.ts';

export interface FrontendsOptions {
  /** Folder holding `shell/dist` and `<remote>/dist` (the repository root by default). */
  frontendRoot: string;
  /** Remote name → URL of its `mf-manifest.json`, served as `/remotes.json`. */
  remotes: Record<string, string>;
  /** Satellite tiles for the map, served to the page as `/config.json`. */
  mapTiles?: { url: string; attribution: string };
  /** The site's address for absolute links in share previews (`PUBLIC_URL`); the request's host otherwise. */
  publicUrl?: string;
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

/** Serves the shell at `/`, each remote under `/remotes/<folder>/`, `/remotes.json`, and the SPA fallback. */
export async function frontendsPlugin(app: FastifyInstance, options: FrontendsOptions) {
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
  const pageConfig = { mapTiles: options.mapTiles ?? DEFAULT_MAP_TILES };
  app.get('/config.json', { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(pageConfig),
  );

  app.get('/remotes.json', { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(options.remotes),
  );

  // Cameras as the public camera list shows them, asked through this gateway like a browser would.
  const cameraNamed = createCameraLookup(async () => {
    const answer = await app.inject({ url: '/api/Webcam/GetImages' });
    return answer.statusCode === 200 ? (answer.json() as CameraListItem[]) : null;
  });
  const publicUrl = options.publicUrl?.replace(/\/+$/, '');
  /** index.html with the page's description and share preview: crawlers run no JavaScript. */
  async function pageHtml(request: FastifyRequest, path: string): Promise<string> {
    const html = await readFile(join(shellDir, 'index.html'), 'utf8');
    const origin = publicUrl ?? `${request.protocol}://${request.host}`;
    const name = cameraOfPage(path);
    const camera = name ? await cameraNamed(name) : undefined;
    return withPageMeta(html, camera ? cameraPageMeta(origin, camera) : sitePageMeta(origin, path));
  }

  // Unknown paths: JSON 404 for APIs and files, the shell's index.html for pages (the shell routes them).
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const looksLikePage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith('/api/') &&
      !/\.[a-z0-9]+$/i.test(path);
    if (looksLikePage && hasShell) {
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(await pageHtml(request, path));
    }
    return reply.code(404).send(errorBody(404, `Route ${request.method} ${path} not found`));
  });
}
