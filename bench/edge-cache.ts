import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '../e2e/browser.ts';
import type { BenchContext } from './context.ts';
import {
  ensureDebianPackage,
  ensureResultsDir,
  log,
  ROOT,
  type ResultRow,
  row,
  sleep,
  verdict,
  type WrkResult,
  wrkInTurns,
} from './harness.ts';
import { IMAGE_CAMERA, IMAGE_PATH, IMAGE_QUALITY } from './image-delivery.ts';
import { resolvePicture, signedInViewer } from './portals.ts';
import { ensurePartnerPage, layersAvailable, PARTNER_HEADERS, PARTNER_PICTURE_PATH } from './referer-path.ts';

const TEMPLATE = join(ROOT, 'deploy', 'k8s', 'base', 'edge', 'edge.conf.template');
const CONNECTIONS = [50, 200];

interface Edge {
  url: string;
  /** How the edge answered each picture request since the last call: HIT, MISS, … counted per URL path. */
  takeLog(): Promise<Map<string, Map<string, number>>>;
  close(): Promise<void>;
}

/**
 * deploy/'s edge cache (the same template compose and Kubernetes use) in front of the portal, as a local nginx
 * with the baseline's worker and sendfile settings; its access log keeps each request's cache status.
 */
export async function startEdge(origin: string, settings = 'sendfile on;\n  tcp_nopush on;'): Promise<Edge> {
  const binary = ensureDebianPackage('nginx', 'nginx-light');
  const dir = await ensureResultsDir(`edge-${process.pid}`);
  const port = await freePort();
  const values: Record<string, string> = {
    EDGE_CACHE_DIR: join(dir, 'cache'),
    EDGE_CACHE_MAX_SIZE: '512m',
    EDGE_ORIGIN: origin,
    EDGE_PORT: `127.0.0.1:${port}`,
  };
  // As the nginx image's envsubst fills the template.
  const snippet = (await readFile(TEMPLATE, 'utf8')).replace(/\$\{(EDGE_[A-Z_]+)\}/g, (_all, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`the edge template names ${name}, which the bench does not fill`);
    return value;
  });
  const accessLog = join(dir, 'access.log');
  const temp = (name: string) => `  ${name}_temp_path ${join(dir, 'tmp')};`;
  await writeFile(
    join(dir, 'nginx.conf'),
    `${process.getuid?.() === 0 ? 'user root;\n' : ''}daemon off;\nworker_processes auto;\npid ${join(dir, 'nginx.pid')};\n` +
      `error_log ${join(dir, 'error.log')} warn;\nevents { worker_connections 4096; }\nhttp {\n` +
      `  log_format cache '$upstream_cache_status $uri';\n  access_log ${accessLog} cache buffer=256k flush=1s;\n` +
      `  ${settings}\n  keepalive_requests 1000000;\n` +
      ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n') +
      `\n${snippet}\n}\n`,
  );
  spawnSync('mkdir', ['-p', join(dir, 'tmp'), join(dir, 'cache')]);
  const args = ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')];
  const check = spawnSync(binary, ['-t', ...args]);
  if (check.status !== 0) throw new Error(`the edge's nginx refused its configuration:\n${check.stderr}`);
  const child: ChildProcess = spawn(binary, args, { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    if (await fetch(`${url}/health`).catch(() => null)) break;
    await sleep(100);
  }
  return {
    url,
    async takeLog() {
      // The log is buffered for a second; a reopen (USR1) flushes it.
      child.kill('SIGUSR1');
      await sleep(1500);
      const text = await readFile(accessLog, 'utf8').catch(() => '');
      await writeFile(accessLog, '');
      child.kill('SIGUSR1');
      const counts = new Map<string, Map<string, number>>();
      for (const line of text.split('\n')) {
        const [status = '', path = ''] = line.split(' ');
        if (!path.startsWith('/pictures/')) continue;
        const byStatus = counts.get(path) ?? new Map<string, number>();
        byStatus.set(status || '-', (byStatus.get(status || '-') ?? 0) + 1);
        counts.set(path, byStatus);
      }
      return counts;
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGQUIT');
      await Promise.race([exited, sleep(5000)]);
    },
  };
}

/**
 * The edge cache of deploy/ in front of the embedded portal, against nginx serving the same file from disk:
 * an anonymous visitor's POOR picture, a signed-in visitor's signed FULL one and a partner page's signed, layered
 * picture by their names, at 50 and 200 connections; and for each, the share the edge answered from its cache
 * and the requests that reached the origin.
 */
export async function edgeCache(context: BenchContext): Promise<ResultRow[]> {
  const portal = await context.embedded();
  const nginx = await context.nginx();
  const edge = await startEdge(new URL(portal.url).host);
  const common = { benchmark: 'edge cache', baselineLabel: 'nginx static' };
  const rows: ResultRow[] = [];
  try {
    const viewer = await signedInViewer(portal, IMAGE_CAMERA, IMAGE_QUALITY);
    const cases: { name: string; path: string; headers: Record<string, string> }[] = [
      { name: 'anonymous (POOR)', path: IMAGE_PATH, headers: {} },
      { name: `signed-in (${IMAGE_QUALITY}, signed)`, path: IMAGE_PATH, headers: viewer },
    ];
    if (layersAvailable()) {
      await ensurePartnerPage(portal);
      cases.push({
        name: 'partner page (booking, 2 layers, signed)',
        path: PARTNER_PICTURE_PATH,
        headers: PARTNER_HEADERS,
      });
    }
    for (const { name, path, headers } of cases) {
      // Through the edge as a browser: the redirect passes (private), the picture it names is cached.
      const { location, bytes } = await resolvePicture(edge.url, path, headers);
      await nginx.put(location.split('?')[0] as string, bytes);
      await edge.takeLog();
      for (const connections of CONNECTIONS) {
        log(`edge cache, ${name}, ${connections} connections: ${location}`);
        const results = await wrkInTurns(
          [
            { label: 'nginx', url: `${nginx.url}${location}` },
            { label: 'edge', url: `${edge.url}${location}` },
          ],
          { connections },
        );
        const [measured, base] = [results.edge, results.nginx] as [WrkResult, WrkResult];
        const statuses = (await edge.takeLog()).get(location.split('?')[0] as string) ?? new Map<string, number>();
        const total = [...statuses.values()].reduce((sum, n) => sum + n, 0);
        const hits = statuses.get('HIT') ?? 0;
        const kase = `${name}, ${connections} conn.`;
        rows.push(
          row({
            ...common,
            case: kase,
            metric: 'requests/s',
            unit: 'req/s',
            portal: measured.requestsPerSecond,
            baseline: base.requestsPerSecond,
            target: '≥ 0.9× nginx',
            verdict: verdict(measured.requestsPerSecond >= 0.9 * base.requestsPerSecond),
          }),
          row({ ...common, case: kase, metric: 'p99 latency', unit: 'ms', portal: measured.p99, baseline: base.p99 }),
          row({
            ...common,
            case: kase,
            metric: 'answered from the cache',
            unit: '%',
            portal: total ? (100 * hits) / total : 0,
            baseline: null,
            target: '≥ 95 %',
            verdict: verdict(total > 0 && hits / total >= 0.95),
            note: `${total - hits} of ${total} requests reached the origin (${[...statuses].map(([s, n]) => `${s} ${n}`).join(', ')}); ${measured.errors} errors; body ${(measured.bytesPerRequest / 1024).toFixed(1)} KiB`,
          }),
        );
      }
    }
    return rows;
  } finally {
    await edge.close();
  }
}
