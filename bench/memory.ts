import { join } from 'node:path';
import type { BenchContext } from './context.ts';
import {
  ensureResultsDir,
  log,
  memoryOf,
  type ResultRow,
  row,
  sampleRss,
  sleep,
  startNodeServer,
  wrk,
} from './harness.ts';
import { IMAGE_CAMERA, IMAGE_PATH, IMAGE_QUALITY } from './image-delivery.ts';
import { resolvePicture, signedInViewer } from './portals.ts';
import { rm, writeFile } from 'node:fs/promises';

const IDLE_SECONDS = 10;

/**
 * Peak RSS of the embedded portal's process idle with the demo cameras and under benchmark 1's load (wrk at
 * 50 and 200 connections on the picture by its name, 50 on the redirect to it), beside a bare Node server
 * that serves the same file.
 */
export async function memory(context: BenchContext): Promise<ResultRow[]> {
  const portal = await context.embedded();
  const node = portal.processes()[0] as { pid: number };
  const postgres = () =>
    portal
      .processes()
      .filter((p) => p.label === 'postgres')
      .map((p) => p.pid);
  const dir = await ensureResultsDir('memory');
  const file = join(dir, 'image.jpg');
  const baseline = await startNodeServer('baseline-image-server.ts', { BASELINE_IMAGE_FILE: file }, 'BASELINE_URL');
  try {
    log(`idle for ${IDLE_SECONDS} s`);
    const idlePortal = sampleRss(() => [node.pid]);
    const idlePostgres = sampleRss(postgres);
    const idleBaseline = sampleRss(() => [baseline.pid]);
    await sleep(IDLE_SECONDS * 1000);
    const idle = { portal: idlePortal.stop(), postgres: idlePostgres.stop(), baseline: idleBaseline.stop() };

    const viewer = await signedInViewer(portal, IMAGE_CAMERA, IMAGE_QUALITY);
    // The baseline serves the very bytes the portal now sends under the picture's name.
    const { location, bytes } = await resolvePicture(portal.url, IMAGE_PATH, viewer);
    await writeFile(file, bytes);
    const loadPortal = sampleRss(() => [node.pid]);
    const loadPostgres = sampleRss(postgres);
    for (const connections of [50, 200]) await wrk(`${portal.url}${location}`, { connections });
    // Every visit also asks for the redirect to that name.
    await wrk(`${portal.url}${IMAGE_PATH}`, { connections: 50, headers: viewer });
    const loaded = { portal: loadPortal.stop(), postgres: loadPostgres.stop() };
    const loadBaseline = sampleRss(() => [baseline.pid]);
    for (const connections of [50, 200]) await wrk(`${baseline.url}${location}`, { connections });
    const loadedBaseline = loadBaseline.stop();
    const high = memoryOf(node.pid)?.peak ?? null;
    const common = { benchmark: 'memory', unit: 'MiB', baselineLabel: 'bare Node server' };
    return [
      row({
        ...common,
        case: 'idle, 8 demo cameras',
        metric: 'peak RSS',
        portal: idle.portal.peakTotal,
        baseline: idle.baseline.peakTotal,
        note: `+ embedded PostgreSQL ${idle.postgres.peakTotal.toFixed(0)} MiB (all its processes)`,
      }),
      row({
        ...common,
        case: 'under benchmark 1 (wrk 50 + 200 conn. on the picture, 50 on its redirect)',
        metric: 'peak RSS',
        portal: loaded.portal.peakTotal,
        baseline: loadedBaseline.peakTotal,
        note: `+ embedded PostgreSQL ${loaded.postgres.peakTotal.toFixed(0)} MiB; VmHWM since start ${high?.toFixed(0) ?? '?'} MiB`,
      }),
    ];
  } finally {
    await baseline.close();
    await rm(dir, { recursive: true, force: true });
  }
}
