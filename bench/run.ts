import { writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { api } from './api.ts';
import { cameraConnect } from './camera-connect.ts';
import { capture } from './capture.ts';
import { edgeCache } from './edge-cache.ts';
import { embedVitals } from './embed-vitals.ts';
import { type BenchContext, createBenchContext } from './context.ts';
import { formats } from './formats.ts';
import { frontEnd } from './front-end.ts';
import { ensureResultsDir, log, notMeasured, REPEATS, type ResultRow, WRK_SECONDS } from './harness.ts';
import { imageDelivery } from './image-delivery.ts';
import { load } from './load.ts';
import { memory } from './memory.ts';
import { soak } from './soak.ts';
import { timelapse } from './timelapse.ts';
import { vitals } from './vitals.ts';

/**
 * `npm run bench [-- name …]`: runs the named benchmarks (all without names) in a fixed order, prints one
 * table and writes it to bench/.results/latest.json (and a dated copy).
 */
const BENCHMARKS: Record<string, (context: BenchContext) => Promise<ResultRow[]>> = {
  // Capture first, while no portal runs beside it; memory next, while the portal is fresh.
  capture,
  formats,
  timelapse,
  memory,
  image: imageDelivery,
  'edge-cache': edgeCache,
  'front-end': frontEnd,
  // Lighthouse on every public page, also before the API benchmark's 1000 cameras fill the lists.
  vitals,
  // The embedded player on a partner's page, Lighthouse beside the page without it.
  'embed-vitals': embedVitals,
  // Seeds 1000 cameras into the shared portal: after the pages were measured with the demo cameras.
  api,
  load,
  // Its own portal, as `npm start` runs it, with a camera of each kind.
  'camera-connect': cameraConnect,
  // An hour by default: only when named.
  soak,
};
const ON_REQUEST_ONLY = new Set(['soak']);
const ALIASES: Record<string, string> = { 'image-delivery': 'image', frontend: 'front-end', front_end: 'front-end' };

const requested = process.argv.slice(2).map((name) => ALIASES[name] ?? name);
const unknown = requested.filter((name) => !(name in BENCHMARKS));
if (unknown.length) {
  console.error(`Unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(BENCHMARKS).join(', ')}`);
  process.exit(2);
}
const selected = Object.keys(BENCHMARKS).filter((name) =>
  requested.length === 0 ? !ON_REQUEST_ONLY.has(name) : requested.includes(name),
);

const started = new Date();
const machine = {
  cpus: availableParallelism(),
  cpuModel: cpus()[0]?.model ?? 'unknown',
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
};
log(`benchmarks ${selected.join(', ')}; ${REPEATS} repetitions, wrk ${WRK_SECONDS} s each; ${machine.cpus} cores`);

const context = createBenchContext();
const rows: ResultRow[] = [];
let failed = false;
const stop = async () => {
  await context.close().catch(() => {});
  process.exit(130);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
try {
  for (const name of selected) {
    const benchmark = BENCHMARKS[name] as (context: BenchContext) => Promise<ResultRow[]>;
    log(`── ${name}`);
    const began = Date.now();
    try {
      rows.push(...(await benchmark(context)));
    } catch (error) {
      failed = true;
      log(`${name} failed: ${(error as Error).stack ?? error}`);
      rows.push(notMeasured({ benchmark: name, case: '' }, error));
    }
    log(`${name} took ${((Date.now() - began) / 1000).toFixed(0)} s`);
  }
} finally {
  await context.close();
}

const format = (value: number | null, unit = '') => {
  if (value === null || Number.isNaN(value)) return '–';
  if (unit === 'count') return String(Math.round(value));
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)}${unit ? ` ${unit}` : ''}`;
};
const table = [
  ['benchmark', 'case', 'metric', 'portal', 'baseline', 'ratio', 'target', 'verdict', 'note'],
  ...rows.map((r) => [
    r.benchmark,
    r.case,
    r.metric,
    format(r.portal, r.unit),
    r.baseline === null ? '–' : `${format(r.baseline, r.unit)} (${r.baselineLabel})`,
    r.ratio === null ? '–' : `${r.ratio.toFixed(2)}×`,
    r.target ?? '',
    r.verdict,
    r.note ?? '',
  ]),
];
const widths = (table[0] as string[]).map((_, column) => Math.max(...table.map((line) => (line[column] ?? '').length)));
const lines = table.map((line) =>
  line
    .map((cell, column) => cell.padEnd(widths[column] ?? 0))
    .join(' │ ')
    .trimEnd(),
);
lines.splice(1, 0, widths.map((w) => '─'.repeat(w)).join('─┼─'));
const durationS = Math.round((Date.now() - started.getTime()) / 1000);
console.log(
  `\nBenchmarks of ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${machine.cpus} cores (${machine.cpuModel}), ${machine.memoryGiB} GiB, Node ${machine.node}, ${durationS} s\n`,
);
console.log(lines.join('\n'));

const dir = await ensureResultsDir();
const report = JSON.stringify({ started: started.toISOString(), durationS, machine, selected, rows }, null, 2);
await writeFile(join(dir, 'latest.json'), report);
await writeFile(join(dir, `bench-${started.toISOString().replace(/[:.]/g, '-')}.json`), report);
log(`results written to bench/.results/latest.json`);
process.exit(failed ? 1 : 0);
