/**
 * The dev loop (README, "Working on one remote"):
 *
 *   node scripts/dev.ts mf-map [--port 3101] [--portal http://localhost:8080]   one app (`npm run dev -w mf-map`)
 *   node scripts/dev.ts [--port 3100]                                           the whole portal (`npm run dev`)
 *
 * One app: Rspack builds it in watch mode for the browser (hot updates, React Refresh; libs/mf-config, MF_DEV) and
 * this serves the build with CORS, plus an event stream that tells the page of each rebuild. A remote is used by a
 * running portal's own page, in one browser only, through the `?devRemote=` link printed here (shell
 * remote-overrides.ts); the shell serves its page itself and passes everything else on to the portal.
 * The whole portal: `npm start` plus the four dev servers; the shell's answers /remotes.json with the others.
 * There `--port` moves the shell's dev server, the page one opens; the remotes' then take any free port.
 */
import { DEV_REMOTE_COOKIE, REMOTES } from '@lakecams/contracts';
import { contentSecurityPolicy, LOOPBACK_ORIGINS, newNonce, withScriptNonce } from '@lakecams/gateway';
import type { Configuration, Watching } from '@rspack/core';
import closeWithGrace from 'close-with-grace';
import { type ChildProcess, spawn } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Each app's dev server port, so the printed links stay the same from one day to the next. */
export const DEV_PORTS: Record<string, number> = { shell: 3100, 'mf-map': 3101, 'mf-account': 3102, 'mf-admin': 3103 };
export const DEFAULT_PORTAL_URL = 'http://localhost:8080';
export const DEV_EVENTS_PATH = '/__dev/events';

export interface DevServerOptions {
  /** `shell` or a remote's folder. */
  app: string;
  /** 0 picks a free one. */
  port: number;
  /** The running portal the page, /api and the other remotes come from. */
  portalUrl: string;
  /** The folder built, when not `<app>/` (tests build a copy they may change). */
  appDir?: string;
  /** Shell only: what its /remotes.json names instead of the portal's (`npm run dev` points it at the dev servers). */
  remotes?: Record<string, string>;
  log?: (line: string) => void;
}

export interface DevServer {
  url: string;
  /** The address that switches one browser to this dev server's build (the shell's own address for the shell). */
  link: string;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

export function remoteFolder(app: string): string | undefined {
  return REMOTES.find((remote) => remote.folder === app || remote.name === app)?.folder;
}

/** `<portal>/?devRemote=mf-map@<manifest>`: what a developer opens to load this remote in that browser only. */
export function overrideLink(portalUrl: string, folder: string, manifestUrl: string): string {
  const url = new URL(portalUrl);
  url.searchParams.append('devRemote', `${folder}@${manifestUrl}`);
  // `@`, `:` and `/` stay readable; URLSearchParams would escape them all.
  return url.href.replace(/devRemote=[^&]*/, `devRemote=${folder}@${manifestUrl}`);
}

/** Runs Rspack in watch mode on one app and serves what it builds. */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const log = options.log ?? ((line: string) => console.log(line));
  const isShell = options.app === 'shell';
  const folder = isShell ? 'shell' : remoteFolder(options.app);
  if (!folder) throw new Error(`No app ${options.app}; the apps are shell, ${REMOTES.map((r) => r.folder).join(', ')}`);
  const appDir = resolve(options.appDir ?? join(ROOT, folder));
  const portal = new URL(options.portalUrl);
  const outDir = await mkdtemp(join(tmpdir(), `lakecams-dev-${folder}-`));

  // Read by createAppConfig when the config module is evaluated, which happens once per app and process.
  process.env.MF_DEV = '1';
  process.env.MF_OUT_DIR = outDir;
  const { rspack } = await import('@rspack/core');
  const loaded = (await import(pathToFileURL(join(appDir, 'rspack.config.ts')).href)) as { default: unknown };
  delete process.env.MF_OUT_DIR;
  const configs = [
    typeof loaded.default === 'function' ? await loaded.default({}, {}) : loaded.default,
  ].flat() as Configuration[];
  // The app first; after it the pages an app builds beside it (mf-admin's job dashboard), each rebuilt on its own.
  const [config, ...pages] = configs;
  if (!config) throw new Error(`${folder}: rspack.config.ts exports no configuration`);
  const compiler = rspack({ ...config, infrastructureLogging: { level: 'warn' } });
  const pageCompilers = pages.map((page) =>
    rspack({ ...page, dependencies: undefined, infrastructureLogging: { level: 'warn' } }),
  );

  const clients = new Set<ServerResponse>();
  let state: { event: 'built'; hash: string } | { event: 'failed'; errors: string[] } | null = null;
  let firstBuild: () => void = () => {};
  const built = new Promise<void>((done) => {
    firstBuild = done;
  });
  const send = (client: ServerResponse) => {
    if (!state) return;
    const data = state.event === 'built' ? { hash: state.hash } : { errors: state.errors };
    client.write(`event: ${state.event}\ndata: ${JSON.stringify(data)}\n\n`);
  };

  const watching = compiler.watch({ aggregateTimeout: 20 }, (error, stats) => {
    if (error || !stats || stats.hasErrors()) {
      const errors = error
        ? [String(error)]
        : (stats?.toJson({ all: false, errors: true }).errors ?? []).map((e) => e.message);
      state = { event: 'failed', errors };
      log(`${folder}: the build failed\n${errors.join('\n\n')}`);
    } else {
      const { startTime = 0, endTime = 0 } = stats;
      state = { event: 'built', hash: stats.hash ?? '' };
      log(`${folder}: built in ${endTime - startTime} ms`);
    }
    firstBuild();
    for (const client of clients) send(client);
  });

  const pageWatchers: Watching[] = [];
  const pagesBuilt = pageCompilers.map(
    (page) =>
      new Promise<void>((done) => {
        const name = page.options.name ?? 'page';
        const watcher = page.watch({ aggregateTimeout: 20 }, (error, stats) => {
          if (error || !stats || stats.hasErrors())
            log(`${folder}: ${name} failed to build\n${String(error ?? stats?.toString('errors-only'))}`);
          else log(`${folder}: ${name} built (reload its page to see it)`);
          done();
        });
        pageWatchers.push(watcher);
      }),
  );

  async function serveFile(response: ServerResponse, file: string): Promise<boolean> {
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return false;
    response.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': info.size,
      // Every load takes the latest build; hot updates are named by hash anyway.
      'cache-control': 'no-store',
    });
    createReadStream(file).pipe(response);
    return true;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://dev');
    // A remote is fetched by the portal's page on another origin (manifest, chunks, hot updates, events).
    response.setHeader('access-control-allow-origin', '*');
    if (url.pathname === DEV_EVENTS_PATH) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      response.write(': connected\n\n');
      clients.add(response);
      request.on('close', () => clients.delete(response));
      send(response);
      return;
    }
    await Promise.all([built, ...pagesBuilt]);
    const file = resolve(outDir, `.${decodeURIComponent(url.pathname)}`);
    if (file.startsWith(outDir + sep) && (await serveFile(response, file))) return;
    if (!isShell) {
      if (url.pathname === '/') {
        response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        response.end(`${folder} dev server. Use it in one browser: ${server.link}\n`);
      } else {
        response.writeHead(404).end();
      }
      return;
    }
    if (url.pathname === '/remotes.json' && options.remotes) {
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(JSON.stringify(options.remotes));
      return;
    }
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !url.pathname.startsWith('/api/') &&
      !/\.[a-z0-9]+$/i.test(url.pathname);
    if (isPage && (await servePage(response, join(outDir, 'index.html'), portal))) return;
    proxy(request, response, portal);
  }

  const httpServer = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log(`${folder}: ${request.url} failed: ${String(error)}`);
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((listening, failed) => {
    httpServer.once('error', failed);
    httpServer.listen(options.port, '127.0.0.1', () => listening());
  });
  const address = httpServer.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://localhost:${port}`;
  const server: DevServer = {
    url,
    link: isShell ? `${url}/` : overrideLink(options.portalUrl, folder, `${url}/mf-manifest.json`),
    close: async () => {
      await new Promise<void>((closed) => watching.close(() => closed()));
      await new Promise<void>((closed) => compiler.close(() => closed()));
      for (const watcher of pageWatchers) await new Promise<void>((closed) => watcher.close(() => closed()));
      for (const page of pageCompilers) await new Promise<void>((closed) => page.close(() => closed()));
      for (const client of clients) client.end();
      httpServer.closeAllConnections();
      await new Promise<void>((closed) => httpServer.close(() => closed()));
      await rm(outDir, { recursive: true, force: true });
    },
  };
  return server;
}

/**
 * The shell's page under the portal's own Content-Security-Policy, as the portal gives it to a browser that loads
 * remotes from a dev server, with a nonce of this answer: the dev loop runs under the policy visitors get.
 */
async function servePage(response: ServerResponse, file: string, portal: URL): Promise<boolean> {
  const html = await readFile(file, 'utf8').catch(() => null);
  if (html === null) return false;
  const nonce = newNonce();
  response.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': (await portalPolicy(portal)).replace(/'nonce-[^']*'/, `'nonce-${nonce}'`),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
  });
  response.end(withScriptNonce(html, nonce));
  return true;
}

/** The policy of the portal's pages for a dev browser; without an answer, the portal's policy with no sources of its own. */
async function portalPolicy(portal: URL): Promise<string> {
  const answer = await fetch(new URL('/', portal), {
    method: 'HEAD',
    headers: { cookie: `${DEV_REMOTE_COOKIE}=1` },
    signal: AbortSignal.timeout(3000),
  }).catch(() => null);
  const policy = answer?.headers.get('content-security-policy');
  return policy?.includes("'nonce-")
    ? policy
    : contentSecurityPolicy({ remotes: [], tiles: [], pictures: [], dev: LOOPBACK_ORIGINS }, { nonce: 'none' });
}

const withDevMark = (cookie: string | undefined) => [cookie, `${DEV_REMOTE_COOKIE}=1`].filter(Boolean).join('; ');

/** Passes a request on to the portal as it came: /api, /remotes.json, the published remotes, pictures. */
function proxy(request: IncomingMessage, response: ServerResponse, portal: URL): void {
  const client = portal.protocol === 'https:' ? https : http;
  const upstream = client.request(
    new URL(request.url ?? '/', portal),
    // A browser on a dev server is a dev browser: the portal's answers then allow the dev servers (its page policy).
    {
      method: request.method,
      headers: { ...request.headers, host: portal.host, cookie: withDevMark(request.headers.cookie) },
    },
    (answer) => {
      const headers = { ...answer.headers };
      // The portal's cookies belong to this origin now (a deployed portal may name its domain).
      const cookies = headers['set-cookie'];
      if (cookies) headers['set-cookie'] = cookies.map((cookie) => cookie.replace(/;\s*domain=[^;]*/i, ''));
      response.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(response);
    },
  );
  upstream.on('error', (error) => {
    if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(`The portal at ${portal.origin} does not answer (${error.message}). Is it running?\n`);
  });
  request.pipe(upstream);
}

async function waitForPortal(portalUrl: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('npm start stopped');
    const ok = await fetch(new URL('/health', portalUrl))
      .then((answer) => answer.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((later) => setTimeout(later, 250));
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      portal: { type: 'string' },
      'app-dir': { type: 'string' },
    },
  });
  const servers: DevServer[] = [];
  let portalProcess: ChildProcess | null = null;
  closeWithGrace({ delay: 15_000 }, async ({ err }) => {
    if (err) console.error(err);
    await Promise.all(servers.map((server) => server.close()));
    if (portalProcess && portalProcess.exitCode === null && portalProcess.signalCode === null) {
      const stopped = new Promise((exited) => portalProcess?.once('exit', exited));
      portalProcess.kill('SIGTERM');
      await stopped;
    }
  });

  const app = positionals[0];
  if (app) {
    const portalUrl = values.portal ?? process.env.PORTAL_URL ?? DEFAULT_PORTAL_URL;
    const server = await startDevServer({
      app,
      port: Number(values.port ?? DEV_PORTS[app] ?? 0),
      portalUrl,
      ...(values['app-dir'] ? { appDir: values['app-dir'] } : {}),
    });
    servers.push(server);
    if (app === 'shell') {
      console.log(`\nshell: dev server at ${server.url}, with /api and the remotes of the portal at ${portalUrl}`);
      console.log(`  Open ${server.link}\n`);
    } else {
      console.log(`\n${app}: dev server at ${server.url}, for the portal at ${portalUrl}`);
      console.log(`  In one browser, use this build instead of the published one:  ${server.link}`);
      console.log(`  Back to the published one:  ${new URL('/?devRemote=off', portalUrl).href}\n`);
    }
    return;
  }

  // The whole portal: npm start in its own process group, so Ctrl-C here stops it once, through us.
  const portalUrl = `http://localhost:${process.env.PORT ?? 8080}`;
  portalProcess = spawn(process.execPath, [join(ROOT, 'scripts', 'start.ts')], {
    cwd: ROOT,
    stdio: 'inherit',
    detached: true,
  });
  const remotes: Record<string, string> = {};
  const links: string[] = [];
  const shellPort = values.port === undefined ? (DEV_PORTS.shell ?? 0) : Number(values.port);
  for (const remote of REMOTES) {
    // Found through the shell's /remotes.json, so any free port does once the shell's port is chosen.
    const port = values.port === undefined ? (DEV_PORTS[remote.folder] ?? 0) : 0;
    const server = await startDevServer({ app: remote.folder, port, portalUrl });
    servers.push(server);
    remotes[remote.name] = `${server.url}/mf-manifest.json`;
    links.push(`  ${remote.folder} alone, on the portal's own page in one browser:  ${server.link}`);
  }
  const shell = await startDevServer({ app: 'shell', port: shellPort, portalUrl, remotes });
  servers.push(shell);
  await waitForPortal(portalUrl, portalProcess);
  console.log(`\nEvery app in watch mode with hot reload: open ${shell.link}`);
  console.log(
    `  (the shell and the remotes from their dev servers, /api and pictures from the portal at ${portalUrl})`,
  );
  console.log(links.join('\n'));
  console.log('  Ctrl-C stops everything\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!existsSync(join(ROOT, 'node_modules', '@rspack', 'core'))) throw new Error('Run npm install first');
  await main();
}
