import { DEMO_CAMERAS } from '@lakecams/svc-webcam/testing';
import type { BenchContext } from './context.ts';
import { log, median, memoryOf, type ResultRow, row, sleep, verdict } from './harness.ts';
import { adminClient, startEmbeddedBenchPortal } from './portals.ts';

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 60);
/** Visitors walking the portal at once; each waits a little between requests, as people do. */
const WALKERS = 4;
const PAUSE_MS = 1000;
const IDLE_TARGET_MIB = 300;
const USED_TARGET_MIB = 400;

/** The process's JavaScript heap in use, from the gateway's Prometheus metrics (one process: one heap). */
async function heapMiB(metricsUrl: string | undefined): Promise<number> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  const bytes = /^nodejs_heap_size_used_bytes\{[^}]*service="gateway"[^}]*\} (\d+(?:\.\d+)?(?:e\+\d+)?)/m.exec(text);
  return bytes ? Number(bytes[1]) / 2 ** 20 : 0;
}

const zurichDay = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Zurich' }).format(new Date());

/**
 * One round of what a visitor's browser and an API client ask for: pages, lists, a camera's day and
 * calendar, its picture in each format (the redirect and the picture it names), its zoom descriptor and a
 * tile, the day's best, and requests a probe sends (unknown camera, malformed day).
 */
async function walk(url: string, camera: string, round: number): Promise<{ requests: number; errors: number }> {
  const day = zurichDay();
  let errors = 0;
  let requests = 1;
  const get = async (path: string, init?: RequestInit) => {
    requests++;
    const response = await fetch(`${url}${path}`, init).catch(() => null);
    if (!response || response.status >= 500) errors++;
    await response?.arrayBuffer();
    return response;
  };
  for (const page of ['/', '/webcams', `/webcam/${camera}`, '/bestof']) await get(page);
  await get('/api/Webcam/GetImages');
  await get(`/api/Webcam/GetCameras?name=${camera}`);
  const history = await fetch(`${url}/api/Webcam/GetImageHistory?name=${camera}`).catch(() => null);
  const images = history?.ok ? ((await history.json()) as { images: { name: string }[] }).images : [];
  await get(`/api/Webcam/GetImageDays?name=${camera}&month=${day.slice(0, 7)}`);
  await get(`/api/Webcam/GetBestOf?name=${camera}&day=${day}`);
  const accept = ['image/avif,image/webp,*/*', 'image/webp,*/*', '*/*'][round % 3] as string;
  const redirect = await get(`/api/Image/Get/camera/${camera}.jpg`, { redirect: 'manual', headers: { accept } });
  const location = redirect?.headers.get('location');
  if (location) await get(new URL(location, url).pathname + new URL(location, url).search);
  const moment = images.at(-(1 + (round % Math.max(images.length, 1))))?.name;
  if (moment) {
    await get(`/api/Image/Get/camera/${camera}/${moment}.jpg`, { redirect: 'manual' });
    await get(`/api/Image/Zoom/camera/${camera}/${moment}.dzi`);
    await get(`/api/Image/Zoom/camera/${camera}/${moment}_files/0/0_0.jpg`);
  }
  await get('/api/Webcam/GetImageHistory?name=Gibt-es-nicht');
  await get(`/api/Webcam/GetBestOf?name=${camera}&day=2026-13-45`);
  return { requests, errors };
}

/**
 * `npm run bench -- soak` (not part of the full run): a fresh embedded portal idle, then `BENCH_SOAK_MINUTES`
 * (60) of visitors walking it and an administrator's lists; RSS and heap every minute in the log, and the
 * process's RSS idle, at the end and at its peak beside the targets. Baseline: the same process idle, measured
 * at the start of the same run.
 */
export async function soak(_context: BenchContext): Promise<ResultRow[]> {
  const portal = await startEmbeddedBenchPortal();
  try {
    const pid = (portal.processes()[0] as { pid: number }).pid;
    // Idle: the demo backfill has finished (the start waits for it); a minute at rest, sampled every 5 s,
    // since each minute's captures come and go in it.
    const idleSamples: number[] = [];
    for (let i = 0; i < 12; i++) {
      await sleep(5_000);
      idleSamples.push(memoryOf(pid)?.rss ?? 0);
    }
    const idle = median(idleSamples);
    const idleHeap = await heapMiB(portal.metricsUrl);
    log(
      `soak: idle RSS ${idle.toFixed(0)} MiB (median), heap ${idleHeap.toFixed(0)} MiB; ${MINUTES} minutes of use follow`,
    );
    const admin = await adminClient(portal);
    const until = Date.now() + MINUTES * 60_000;
    let requests = 0;
    let errors = 0;
    const walkers = Array.from({ length: WALKERS }, async (_, walker) => {
      for (let round = 0; Date.now() < until; round++) {
        const camera = DEMO_CAMERAS[(walker + round) % DEMO_CAMERAS.length]?.name as string;
        const done = await walk(portal.url, camera, round);
        requests += done.requests;
        errors += done.errors;
        if (round % 10 === 0) {
          await admin.get('/api/Authenticate/AllUsers');
          await admin.get('/api/Webcam/GetCameras');
        }
        await sleep(PAUSE_MS);
      }
    });
    const minutes: { minute: number; rss: number; heap: number }[] = [];
    const sampler = (async () => {
      for (let minute = 1; minute <= MINUTES; minute++) {
        await sleep(Math.max(0, until - (MINUTES - minute) * 60_000 - Date.now()));
        const sample = { minute, rss: memoryOf(pid)?.rss ?? 0, heap: await heapMiB(portal.metricsUrl).catch(() => 0) };
        minutes.push(sample);
        log(`soak: minute ${minute}: RSS ${sample.rss.toFixed(0)} MiB, heap ${sample.heap.toFixed(0)} MiB`);
      }
    })();
    await Promise.all([...walkers, sampler]);
    // After the use, at rest again: the figure the target is about.
    const restSamples: number[] = [];
    for (let i = 0; i < 12; i++) {
      await sleep(5_000);
      restSamples.push(memoryOf(pid)?.rss ?? 0);
    }
    const rest = median(restSamples);
    const end = memoryOf(pid);
    const common = { benchmark: 'soak', unit: 'MiB', baselineLabel: 'same process idle' };
    return [
      row({
        ...common,
        case: 'embedded, idle after start',
        metric: 'RSS',
        portal: idle,
        baseline: null,
        target: `≤ ${IDLE_TARGET_MIB} MiB`,
        verdict: verdict(idle <= IDLE_TARGET_MIB),
        note: `median of 12 samples over a minute (${Math.min(...idleSamples).toFixed(0)}–${Math.max(...idleSamples).toFixed(0)} MiB); heap ${idleHeap.toFixed(0)} MiB`,
      }),
      row({
        ...common,
        case: `embedded, at rest after ${MINUTES} min of use`,
        metric: 'RSS',
        portal: rest,
        baseline: idle,
        target: `≤ ${USED_TARGET_MIB} MiB`,
        verdict: verdict(rest <= USED_TARGET_MIB),
        note: `median over a minute; during use up to ${Math.max(...minutes.map((m) => m.rss)).toFixed(0)} MiB, peak ${end?.peak.toFixed(0)} MiB; heap ${minutes.at(-1)?.heap.toFixed(0)} MiB; ${requests} requests, ${errors} errors (5xx or refused)`,
      }),
    ];
  } finally {
    await portal.close();
  }
}
