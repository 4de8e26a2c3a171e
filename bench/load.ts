import { API_PATH, seedCameras } from './api.ts';
import type { BenchContext } from './context.ts';
import { log, memoryOf, notMeasured, type ResultRow, row, sleep, verdict, type WrkResult, wrk } from './harness.ts';
import { IMAGE_CAMERA, IMAGE_PATH, IMAGE_QUALITY } from './image-delivery.ts';
import { type BenchPortal, inDistributedMode, resolvePicture, signedInViewer } from './portals.ts';

const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
// Long enough for heaps, JIT and the bounded picture caches to reach their working size.
const WARM_UP_SECONDS = 30;
/** 100 connections in all: half on the camera list, half on the image (its redirect and its picture). */
const CONNECTIONS_EACH = 50;
const IMAGE_CONNECTIONS = { redirect: 25, picture: 25 };
const MEMORY_TOLERANCE = 0.2;

/** RSS in MiB of each of the portal's processes (embedded PostgreSQL's processes summed as one). */
function memoryByProcess(portal: BenchPortal): Map<string, number> {
  const memory = new Map<string, number>();
  for (const { label, pid } of portal.processes()) {
    const rss = memoryOf(pid)?.rss;
    if (rss !== undefined) memory.set(label, (memory.get(label) ?? 0) + rss);
  }
  return memory;
}

/**
 * The picture URL's redirect, the picture it names and the camera list at once for `seconds`; the memory is
 * read 1.5 s before the end, still under load.
 */
async function loadAll(portal: BenchPortal, picturePath: string, viewer: Record<string, string>, seconds: number) {
  const running = Promise.all([
    wrk(`${portal.url}${IMAGE_PATH}`, {
      connections: IMAGE_CONNECTIONS.redirect,
      seconds,
      threads: 1,
      headers: viewer,
    }),
    wrk(`${portal.url}${picturePath}`, { connections: IMAGE_CONNECTIONS.picture, seconds, threads: 1 }),
    wrk(`${portal.url}${API_PATH}`, { connections: CONNECTIONS_EACH, seconds, threads: 1 }),
  ]);
  await sleep((seconds - 1.5) * 1000);
  const memory = memoryByProcess(portal);
  const [redirect, picture, list] = (await running) as [WrkResult, WrkResult, WrkResult];
  return { redirect, picture, list, memory };
}

async function loadMode(portal: BenchPortal): Promise<ResultRow[]> {
  const cameras = await seedCameras(portal);
  const viewer = await signedInViewer(portal, IMAGE_CAMERA, IMAGE_QUALITY);
  const { location } = await resolvePicture(portal.url, IMAGE_PATH, viewer);
  log(`load, ${portal.mode}: warm-up ${WARM_UP_SECONDS} s, then ${LOAD_SECONDS} s`);
  const warmedUp = await loadAll(portal, location, viewer, WARM_UP_SECONDS);
  const measured = await loadAll(portal, location, viewer, LOAD_SECONDS);
  const common = { benchmark: 'load', baselineLabel: '' };
  const rows: ResultRow[] = [];
  for (const [name, result, connections] of [
    ['image redirect', measured.redirect, IMAGE_CONNECTIONS.redirect],
    ['picture by name', measured.picture, IMAGE_CONNECTIONS.picture],
    [`GetImages (${cameras} cameras)`, measured.list, CONNECTIONS_EACH],
  ] as const) {
    log(
      `  ${name}: ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.p99.toFixed(1)} ms, ${result.errors} errors`,
    );
    const kase = `${portal.mode}, ${name}, ${connections} conn., ${LOAD_SECONDS} s`;
    rows.push(
      row({
        ...common,
        case: kase,
        metric: 'requests/s',
        unit: 'req/s',
        portal: result.requestsPerSecond,
        baseline: null,
      }),
      row({ ...common, case: kase, metric: 'p99 latency', unit: 'ms', portal: result.p99, baseline: null }),
      row({
        ...common,
        case: kase,
        metric: 'errors',
        unit: 'count',
        portal: result.errors,
        baseline: null,
        target: '0',
        verdict: verdict(result.errors === 0),
        ...(result.errorKinds ? { note: result.errorKinds } : {}),
      }),
    );
  }
  for (const [label, end] of measured.memory) {
    const afterWarmUp = warmedUp.memory.get(label) ?? null;
    const within = afterWarmUp !== null && Math.abs(end / afterWarmUp - 1) <= MEMORY_TOLERANCE;
    rows.push(
      row({
        ...common,
        case: `${portal.mode}, ${label}`,
        metric: 'RSS at end',
        unit: 'MiB',
        portal: end,
        baseline: afterWarmUp,
        baselineLabel: 'after warm-up',
        target: `within ±${MEMORY_TOLERANCE * 100} %`,
        verdict: verdict(within),
      }),
    );
  }
  return rows;
}

/**
 * The bounded load test of the resilience issue: the image (its redirect and its picture) and the camera list
 * at once through the gateway, 100 connections for 60 s, embedded and then distributed (the other one
 * frozen): zero errors, p99, and every process's memory at the end within 20 % of its value after warm-up.
 */
export async function load(context: BenchContext): Promise<ResultRow[]> {
  const embedded = await context.embedded();
  const rows = await loadMode(embedded);
  rows.push(
    ...(await inDistributedMode(
      embedded,
      (error) => notMeasured({ benchmark: 'load', case: 'distributed' }, error),
      loadMode,
    )),
  );
  return rows;
}
