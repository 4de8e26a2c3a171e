import { ACCESS_COOKIE, REMOTES, SERVICES, type ServiceName, type User } from '@lakecams/contracts';
import { dropDatabase, NATIVE_MEMORY_ENV, withDatabase } from '@lakecams/service-kit';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createTestClient } from '@lakecams/service-kit/testing';
import { DEMO_CAMERAS } from '@lakecams/svc-webcam/testing';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { PortalOptions } from '../scripts/portal.ts';
import { freePort } from '../e2e/browser.ts';
import { buildStaleFrontends } from '../scripts/frontend-build.ts';
import {
  childrenOf,
  descendantsOf,
  fetchOk,
  log,
  NODE,
  PROFILE_DIR,
  PROFILING,
  profileFlags,
  RESULTS_DIR,
  sleep,
  stopProcessGroup,
  waitForOutput,
  waitUntilQuiet,
  ROOT,
  type ResultRow,
} from './harness.ts';

/** A portal the benchmarks run against, in either mode, with the processes whose memory counts. */
export interface BenchPortal {
  mode: 'embedded' | 'distributed';
  url: string;
  /** Where the embedded portal answers `/metrics` (its METRICS_PORT). */
  metricsUrl?: string;
  /** The svc-webcam database (seeding the camera list). */
  webcamDatabaseUrl: string;
  /** The portal's own processes, labelled (embedded: the Node process; PostgreSQL counted apart). */
  processes(): { label: string; pid: number }[];
  /**
   * Where a service takes requests with a body: the gateway (embedded), the service itself (distributed,
   * because the gateway's proxy forwarded bodies empty when this was written; see bench/README.md).
   */
  serviceUrl(service: ServiceName): string;
  /** The demo administrator, when this start created one. */
  demoAdmin: { username: string; password: string } | null;
  /** Freeze every process of the portal (SIGSTOP), so it takes no CPU while another target is measured. */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

function signalGroup(leader: number | undefined, signal: NodeJS.Signals): void {
  try {
    if (leader) process.kill(-leader, signal);
  } catch (error) {
    // The group is gone already: nothing to freeze or wake.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** The embedded PostgreSQL's processes: pg_ctl starts it in its own session, so it is no child of the portal. */
function postgresOf(dataDir: string): number[] {
  try {
    const postmaster = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return postmaster ? [postmaster, ...descendantsOf(postmaster)] : [];
  } catch {
    return [];
  }
}

export const DATABASE_SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const NATS_URL = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';
/** Minutes of demo history rendered at start: a little, so that starting costs seconds rather than minutes. */
const DEMO_BACKFILL_MINUTES = 3;

/** The first demo camera has a picture (the one the benchmarks fetch) and the demo backfill has finished. */
async function waitForDemoCameras(url: string, pids: () => number[]): Promise<void> {
  const started = Date.now();
  const camera = DEMO_CAMERAS[0]?.name;
  while (Date.now() - started < 180_000) {
    const response = await fetch(`${url}/api/Image/Get/camera/${camera}.jpg`).catch(() => null);
    await response?.arrayBuffer();
    if (response?.ok) break;
    await sleep(500);
  }
  const seconds = (Date.now() - started) / 1000;
  if (seconds > 10) log(`${camera} had its first picture only after ${seconds.toFixed(0)} s`);
  await waitUntilQuiet(pids);
}

let frontends: Promise<string> | undefined;

/**
 * A copy of the built front ends for this run (built first when missing), taken once no file changed for 10 s:
 * other engineers rebuild `dist/` while benchmarks run, and a page half old, half new measures nothing.
 */
export function frontendSnapshot(): Promise<string> {
  frontends ??= (async () => {
    buildStaleFrontends(ROOT);
    const folders = ['shell', ...REMOTES.map((remote) => remote.folder), 'embed'];
    const newest = async () => {
      let latest = 0;
      for (const folder of folders) {
        for (const file of await readdir(join(ROOT, folder, 'dist'), { recursive: true })) {
          const info = await stat(join(ROOT, folder, 'dist', file)).catch(() => null);
          latest = Math.max(latest, info?.mtimeMs ?? 0);
        }
      }
      return latest;
    };
    const deadline = Date.now() + 180_000;
    while (Date.now() - (await newest()) < 10_000 && Date.now() < deadline) await sleep(2000);
    // One folder per harness process: two runs at once must not copy over each other.
    const target = join(RESULTS_DIR, `frontends-${process.pid}`);
    await rm(target, { recursive: true, force: true });
    for (const folder of folders) {
      await cp(join(ROOT, folder, 'dist'), join(target, folder, 'dist'), { recursive: true });
    }
    return target;
  })();
  return frontends;
}

export async function removeFrontendSnapshot(): Promise<void> {
  const target = await frontends?.catch(() => undefined);
  if (target) await rm(target, { recursive: true, force: true });
}

/** The embedded portal of `npm start` in a child process with a fresh data folder under bench/.results/. */
export async function startEmbeddedBenchPortal(options: Partial<PortalOptions> = {}): Promise<BenchPortal> {
  const frontendRoot = await frontendSnapshot();
  const dataDir = join(RESULTS_DIR, `embedded-${randomBytes(4).toString('hex')}`);
  await mkdir(dataDir, { recursive: true });
  const portalOptions: PortalOptions = {
    dataDir,
    embeddedPostgresPort: await freePort(),
    demoBackfillMinutes: DEMO_BACKFILL_MINUTES,
    frontendRoot,
    ...options,
  };
  const child = spawn(NODE, [...profileFlags('embedded'), join(ROOT, 'bench', 'embedded-portal.ts')], {
    cwd: ROOT,
    detached: true,
    // As `npm start` runs it (package.json), whatever the bench itself was started with.
    env: { ...process.env, ...NATIVE_MEMORY_ENV, BENCH_PORTAL_OPTIONS: JSON.stringify(portalOptions) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Its output goes to a log beside the results, for when a figure looks wrong.
  const output = createWriteStream(join(RESULTS_DIR, 'embedded-portal.log'), { flags: 'a' });
  child.stdout.pipe(output);
  child.stderr.pipe(output);
  child.once('exit', (code, signal) => {
    if (!closing)
      log(`the embedded portal exited unexpectedly (${signal ?? code}); see bench/.results/embedded-portal.log`);
  });
  let closing = false;
  const match = await waitForOutput(child, /BENCH_PORTAL (\{.*\})\n/, 180_000, 'embedded portal');
  const started = JSON.parse(match[1] as string) as {
    url: string;
    metricsUrl: string;
    databaseUrls: Record<ServiceName, string>;
    demoAdmin: BenchPortal['demoAdmin'];
  };
  const pid = child.pid as number;
  log(`embedded portal at ${started.url} (pid ${pid})`);
  await waitForDemoCameras(started.url, () => [pid, ...descendantsOf(pid)]);
  return {
    mode: 'embedded',
    url: started.url.replace('localhost', '127.0.0.1'),
    metricsUrl: started.metricsUrl,
    serviceUrl: () => started.url.replace('localhost', '127.0.0.1'),
    webcamDatabaseUrl: started.databaseUrls.webcam,
    demoAdmin: started.demoAdmin,
    processes: () => [
      { label: 'node (gateway + 4 services)', pid },
      ...postgresOf(dataDir).map((p) => ({ label: 'postgres', pid: p })),
    ],
    pause: () => signalGroup(pid, 'SIGSTOP'),
    resume: () => signalGroup(pid, 'SIGCONT'),
    close: async () => {
      closing = true;
      signalGroup(pid, 'SIGCONT');
      await stopProcessGroup(child);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * `npm run start:distributed` on the machine's PostgreSQL and NATS, with fresh databases and bus namespace.
 * A failed start is retried (twice) with new databases: two imaging replicas creating the same table on a
 * fresh database can collide (see bench/README.md).
 */
export async function startDistributedBenchPortal(): Promise<BenchPortal> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startDistributedOnce();
    } catch (error) {
      if (attempt === 3) throw error;
      log(
        `distributed start failed (attempt ${attempt}): ${(error as Error).message.split('\n')[0]}; see bench/.results/distributed-portal.log`,
      );
    }
  }
}

async function startDistributedOnce(): Promise<BenchPortal> {
  const frontendRoot = await frontendSnapshot();
  const prefix = `lakecams_bench_${randomBytes(4).toString('hex')}`;
  const dataDir = join(RESULTS_DIR, `distributed-${randomBytes(4).toString('hex')}`);
  await mkdir(dataDir, { recursive: true });
  const port = await freePort();
  // Below the ephemeral range (32768+), where the load generator's own sockets live.
  const serviceBasePort = 20_000 + Math.floor(Math.random() * 12_000);
  const databaseUrls = Object.fromEntries(
    SERVICES.map((service) => [service, withDatabase(DATABASE_SERVER, `${prefix}_${service}`)]),
  ) as Record<ServiceName, string>;
  const child = spawn(NODE, [join(ROOT, 'scripts', 'start-distributed.ts')], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      ...Object.fromEntries(SERVICES.map((s) => [`DATABASE_URL_${s.toUpperCase()}`, databaseUrls[s]])),
      HOST: '127.0.0.1',
      PORT: String(port),
      SERVICE_BASE_PORT: String(serviceBasePort),
      NATS_URL,
      BUS_NAMESPACE: prefix,
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      FRONTEND_ROOT: frontendRoot,
      DEMO_BACKFILL_MINUTES: String(DEMO_BACKFILL_MINUTES),
      // Every process writes its own profile (named by pid).
      ...(PROFILING ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${PROFILE_DIR}` } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const logFile = createWriteStream(join(RESULTS_DIR, 'distributed-portal.log'), { flags: 'a' });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
    logFile.write(chunk);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const cleanup = async () => {
    signalGroup(child.pid, 'SIGCONT');
    await stopProcessGroup(child, 30_000, true);
    for (const service of SERVICES) await dropDatabase(databaseUrls[service]).catch(() => {});
    const nc = await connect({ servers: NATS_URL });
    await (await jetstreamManager(nc)).streams.delete(`LAKECAMS_${prefix}`).catch(() => false);
    await nc.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForOutput(child, /running at/, 180_000, 'distributed portal');
  } catch (error) {
    await cleanup();
    throw error;
  }
  const url = `http://127.0.0.1:${port}`;
  const leader = child.pid as number;
  const labelOf = (pid: number) => {
    try {
      const script = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
        .split('\0')
        .find((arg) => arg.endsWith('server.ts'));
      const replica = /(?:^|\0)REPLICA_ID=([^\0]*)/.exec(readFileSync(`/proc/${pid}/environ`, 'utf8'))?.[1];
      const name = script?.split('/').at(-3) ?? 'process';
      return name === 'gateway' ? 'gateway' : (replica ?? name);
    } catch {
      return 'process';
    }
  };
  const processes = () => childrenOf(leader).map((pid) => ({ label: labelOf(pid), pid }));
  log(`distributed portal at ${url} (${processes().length} processes)`);
  await fetchOk(`${url}/ready`);
  await waitForDemoCameras(url, () => processes().map((p) => p.pid));
  const demoAdmin = /username (\S+), password (\S+)/.exec(output);
  return {
    mode: 'distributed',
    url,
    // start-distributed.ts gives the services consecutive ports in the order of SERVICES.
    serviceUrl: (service) => `http://127.0.0.1:${serviceBasePort + SERVICES.indexOf(service)}`,
    webcamDatabaseUrl: databaseUrls.webcam,
    demoAdmin: demoAdmin ? { username: demoAdmin[1] as string, password: demoAdmin[2] as string } : null,
    processes,
    pause: () => signalGroup(leader, 'SIGSTOP'),
    resume: () => signalGroup(leader, 'SIGCONT'),
    close: cleanup,
  };
}

/** The portal's API as its demo administrator (anti-forgery cookie and bearer token like the page). */
export async function adminClient(portal: BenchPortal) {
  if (!portal.demoAdmin) throw new Error(`the ${portal.mode} portal created no demo administrator`);
  const login = await createTestClient(portal.serviceUrl('identity')).post(
    '/api/Authenticate/Authenticate',
    portal.demoAdmin,
  );
  if (login.status !== 200) throw new Error(`admin login answered ${login.status}: ${login.text}`);
  const client = createTestClient(portal.url);
  client.setToken(login.json.jwtToken);
  return Object.assign(client, { user: login.json as User });
}

/**
 * A signed-in visitor getting `quality` of a camera: the camera's "all other users" configuration set to it (the
 * change reaches svc-imaging as an event, awaited), and the headers of a signed-in user without a configuration
 * of its own (the demo administrator's access cookie, as an `<img>` sends it). Anonymous visitors get POOR.
 */
export async function signedInViewer(
  portal: BenchPortal,
  camera: string,
  quality: string,
): Promise<Record<string, string>> {
  const client = await adminClient(portal);
  const [webcam] = (await client.get(`/api/Webcam/GetCameras?name=${camera}`)).json as { id: number }[];
  if (!webcam) throw new Error(`no camera ${camera}`);
  const set = await client.post(`/api/Webcam/SetConfiguration/configuration?webcamId=${webcam.id}&quality=${quality}`);
  if (set.status !== 200) throw new Error(`SetConfiguration answered ${set.status}: ${set.text}`);
  const headers = { cookie: `${ACCESS_COOKIE}=${client.user.jwtToken}` };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    // The redirect says the level and why (`FULL; all other users`); no need to fetch the picture.
    const response = await fetch(`${portal.url}/api/Image/Get/camera/${camera}.jpg`, { headers, redirect: 'manual' });
    await response.arrayBuffer();
    if (response.headers.get('x-image-quality')?.split(';')[0] === quality) return headers;
    await sleep(250);
  }
  throw new Error(`${camera} is not delivered at ${quality} after 30 s`);
}

/** A picture as a browser gets it: the entitlement URL's redirect, then the picture's immutable name. */
export interface ResolvedPicture {
  /** The redirect's level and reason, e.g. `FULL; all other users`. */
  quality: string;
  /** Where the redirect points: `/pictures/…`, with `?e=…&s=…` above the public level (relative to the portal). */
  location: string;
  /** The picture's bytes, as a cache in front of the portal would keep them. */
  bytes: Buffer;
  picture: Response;
}

/** Follows a picture URL's redirect by hand, so that both answers can be measured apart (wrk follows none). */
export async function resolvePicture(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<ResolvedPicture> {
  const entitlement = await fetch(`${baseUrl}${path}`, { headers, redirect: 'manual' });
  await entitlement.arrayBuffer();
  const target = entitlement.headers.get('location');
  if (entitlement.status !== 302 || !target)
    throw new Error(`${path} answered ${entitlement.status}, not a redirect to the picture`);
  const url = new URL(target, baseUrl);
  if (url.origin !== new URL(baseUrl).origin) throw new Error(`${path} redirects to another host: ${target}`);
  const location = `${url.pathname}${url.search}`;
  // A cookie-less request, as to a picture host or a CDN: nothing of the caller's goes along.
  const picture = await fetchOk(`${baseUrl}${location}`, { redirect: 'manual' });
  const bytes = Buffer.from(await picture.arrayBuffer());
  return { quality: entitlement.headers.get('x-image-quality') ?? '', location, bytes, picture };
}

/**
 * Measures on a fresh distributed portal while the embedded one is frozen; a failed start or run becomes
 * a "not measured" row instead of ending the whole benchmark.
 */
export async function inDistributedMode(
  embedded: BenchPortal,
  notMeasuredRow: (error: unknown) => ResultRow,
  measure: (distributed: BenchPortal) => Promise<ResultRow[]>,
): Promise<ResultRow[]> {
  embedded.pause();
  let distributed: BenchPortal | null = null;
  try {
    log('starting the distributed portal');
    distributed = await startDistributedBenchPortal();
    return await measure(distributed);
  } catch (error) {
    log(`distributed mode not measured: ${(error as Error).stack}`);
    return [notMeasuredRow(error)];
  } finally {
    await distributed?.close();
    embedded.resume();
  }
}
