import type { BenchContext } from './context.ts';
import { log, notMeasured, type ResultRow, row, verdict, type WrkResult, wrkInTurns } from './harness.ts';
import type { Nginx } from './nginx.ts';
import { type BenchPortal, inDistributedMode, resolvePicture, signedInViewer } from './portals.ts';
import { measureRefererPath } from './referer-path.ts';

export const IMAGE_CAMERA = 'Rapperswil-Seedamm';
/** The entitlement URL partner pages embed: it answers a private redirect to the picture's immutable name. */
export const IMAGE_PATH = `/api/Image/Get/camera/${IMAGE_CAMERA}.jpg`;
/** FULL: the camera's own JPEG (about 70–80 KiB for the demo pictures), the heaviest body delivery sends. */
export const IMAGE_QUALITY = 'FULL';
const CONNECTIONS = [50, 200];
/** The redirect is a few hundred bytes: one connection count shows its cost. */
const REDIRECT_CONNECTIONS = [50];

interface Measured {
  label: string;
  measured: WrkResult;
  base: WrkResult;
}

function rowsOf(portal: BenchPortal, kase: string, { measured, base }: Measured, targeted: boolean): ResultRow[] {
  const common = { benchmark: 'image delivery', case: kase, baselineLabel: 'nginx' };
  return [
    row({
      ...common,
      metric: 'requests/s',
      unit: 'req/s',
      portal: measured.requestsPerSecond,
      baseline: base.requestsPerSecond,
      ...(targeted
        ? { target: '≥ 0.5× nginx', verdict: verdict(measured.requestsPerSecond >= 0.5 * base.requestsPerSecond) }
        : {}),
    }),
    row({ ...common, metric: 'p50 latency', unit: 'ms', portal: measured.p50, baseline: base.p50 }),
    row({
      ...common,
      metric: 'p99 latency',
      unit: 'ms',
      portal: measured.p99,
      baseline: base.p99,
      ...(targeted ? { target: '≤ nginx', verdict: verdict(measured.p99 <= base.p99) } : {}),
    }),
    row({
      ...common,
      metric: 'errors',
      unit: 'count',
      portal: measured.errors,
      baseline: base.errors,
      ...(portal.mode === 'embedded' ? { target: '0', verdict: verdict(measured.errors === 0) } : {}),
      note: `body ${(measured.bytesPerRequest / 1024).toFixed(1)} KiB, nginx ${(base.bytesPerRequest / 1024).toFixed(1)} KiB${measured.errorKinds ? `; ${measured.errorKinds}` : ''}`,
    }),
  ];
}

async function inTurns(
  portal: BenchPortal,
  nginx: Nginx,
  path: string,
  connections: number,
  headers: Record<string, string> = {},
): Promise<Measured> {
  const results = await wrkInTurns(
    [
      { label: 'nginx', url: `${nginx.url}${path}` },
      { label: portal.mode, url: `${portal.url}${path}`, headers },
    ],
    { connections },
  );
  return { label: portal.mode, measured: results[portal.mode] as WrkResult, base: results.nginx as WrkResult };
}

/**
 * nginx and one portal in turns, each answering the same paths: the picture by its immutable name (the bytes,
 * what a CDN in front would serve and mostly keep), and the entitlement URL's private redirect to that name
 * (what every visit asks the portal, nginx answering the same 302 from its configuration).
 */
async function measureMode(portal: BenchPortal, nginx: Nginx): Promise<ResultRow[]> {
  const viewer = await signedInViewer(portal, IMAGE_CAMERA, IMAGE_QUALITY);
  const { quality, location, bytes, picture } = await resolvePicture(portal.url, IMAGE_PATH, viewer);
  await nginx.put(location.split('?')[0] as string, bytes);
  await nginx.redirect(IMAGE_PATH, location);
  log(
    `${portal.mode}: ${IMAGE_PATH} (${quality}) → ${location}, ${(bytes.length / 1024).toFixed(0)} KiB, ${picture.headers.get('cache-control')}`,
  );
  // Embedded mode has the targets, for the picture's bytes as before the redirect existed.
  const targeted = portal.mode === 'embedded';
  const rows: ResultRow[] = [];
  for (const connections of CONNECTIONS) {
    log(`image delivery, picture by name, ${portal.mode}, ${connections} connections`);
    const measured = await inTurns(portal, nginx, location, connections);
    rows.push(...rowsOf(portal, `${portal.mode}, picture by name, ${connections} conn.`, measured, targeted));
  }
  for (const connections of REDIRECT_CONNECTIONS) {
    log(`image delivery, redirect, ${portal.mode}, ${connections} connections`);
    const measured = await inTurns(portal, nginx, IMAGE_PATH, connections, viewer);
    rows.push(...rowsOf(portal, `${portal.mode}, redirect to the name, ${connections} conn.`, measured, false));
  }
  return rows;
}

/**
 * `GET /api/Image/Get/camera/{name}.jpg` through the gateway, embedded and distributed: its redirect and the
 * picture it names, each against nginx answering the same from its configuration and from disk. Only one
 * portal runs at a time: the other is frozen (SIGSTOP) meanwhile.
 */
export async function imageDelivery(context: BenchContext): Promise<ResultRow[]> {
  const embedded = await context.embedded();
  const nginx = await context.nginx();
  const rows = await measureMode(embedded, nginx);
  rows.push(...(await measureRefererPath(embedded, nginx)));

  rows.push(
    ...(await inDistributedMode(
      embedded,
      (error) =>
        notMeasured(
          {
            benchmark: 'image delivery',
            case: 'distributed',
            metric: 'requests/s',
            unit: 'req/s',
            baselineLabel: 'nginx',
          },
          error,
        ),
      (distributed) => measureMode(distributed, nginx),
    )),
  );
  return rows;
}
