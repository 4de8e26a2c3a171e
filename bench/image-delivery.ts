import type { BenchContext } from './context.ts';
import { fetchOk, log, notMeasured, type ResultRow, row, verdict, type WrkResult, wrkInTurns } from './harness.ts';
import type { Nginx } from './nginx.ts';
import { type BenchPortal, inDistributedMode, setPublicQuality } from './portals.ts';
import { measureRefererPath } from './referer-path.ts';

export const IMAGE_CAMERA = 'Rapperswil-Seedamm';
export const IMAGE_PATH = `/api/Image/Get/camera/${IMAGE_CAMERA}.jpg`;
/** FULL: the camera's own JPEG (about 70–80 KiB for the demo pictures), the heaviest body delivery sends. */
export const IMAGE_QUALITY = 'FULL';
const CONNECTIONS = [50, 200];

/** nginx and one portal in turns at each connection count, nginx serving the bytes that portal sends. */
async function measureMode(portal: BenchPortal, nginx: Nginx): Promise<ResultRow[]> {
  await setPublicQuality(portal, IMAGE_CAMERA, IMAGE_QUALITY);
  const image = await fetchOk(`${portal.url}${IMAGE_PATH}`);
  const bytes = Buffer.from(await image.arrayBuffer());
  await nginx.put(IMAGE_PATH, bytes);
  log(
    `${portal.mode}: ${IMAGE_PATH} is ${(bytes.length / 1024).toFixed(0)} KiB (${image.headers.get('x-image-quality')})`,
  );
  const targeted = portal.mode === 'embedded';
  const rows: ResultRow[] = [];
  for (const connections of CONNECTIONS) {
    log(`image delivery, ${portal.mode}, ${connections} connections`);
    const results = await wrkInTurns(
      [
        { label: 'nginx', url: `${nginx.url}${IMAGE_PATH}` },
        { label: portal.mode, url: `${portal.url}${IMAGE_PATH}` },
      ],
      { connections },
    );
    const base = results.nginx as WrkResult;
    const measured = results[portal.mode] as WrkResult;
    const common = {
      benchmark: 'image delivery',
      case: `${portal.mode}, ${connections} conn.`,
      baselineLabel: 'nginx',
    };
    rows.push(
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
        ...(targeted ? { target: '0', verdict: verdict(measured.errors === 0) } : {}),
        note: `body ${(measured.bytesPerRequest / 1024).toFixed(0)} KiB, nginx ${(base.bytesPerRequest / 1024).toFixed(0)} KiB${measured.errorKinds ? `; ${measured.errorKinds}` : ''}`,
      }),
    );
  }
  return rows;
}

/**
 * `GET /api/Image/Get/camera/{name}.jpg` through the gateway, embedded and distributed, against nginx serving
 * the identical bytes from disk. Only one portal runs at a time: the other is frozen (SIGSTOP) meanwhile.
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
