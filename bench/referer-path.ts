import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchPortal } from './portals.ts';
import type { Nginx } from './nginx.ts';
import { ROOT, type ResultRow, row } from './harness.ts';

/** Does svc-referer have the layer upload route yet? */
export function layersAvailable(): boolean {
  const routes = join(ROOT, 'svc-referer', 'src');
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
    );
  return existsSync(routes) && files(routes).some((file) => readFileSync(file, 'utf8').includes('SetLayer'));
}

/** The referer-booking path: a `Referer` header with a booking and layers drawn, served from cache after the first request. */
export async function measureRefererPath(_portal: BenchPortal, _nginx: Nginx): Promise<ResultRow[]> {
  if (!layersAvailable()) {
    return [
      row({
        benchmark: 'image delivery',
        case: 'referer booking with layers',
        metric: 'requests/s',
        unit: 'req/s',
        portal: null,
        baseline: null,
        baselineLabel: 'nginx',
        verdict: 'not measured',
        note: 'not measured (layers not available)',
      }),
    ];
  }
  return [];
}
