import { cameraPath } from '@lakecams/contracts';
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse, { type Config, defaultConfig, type Result } from 'lighthouse';
import TraceGatherer from 'lighthouse/core/gather/gatherers/trace.js';
import type { BenchContext } from './context.ts';
import {
  ensureResultsDir,
  log,
  median,
  REPEATS,
  type ResultRow,
  row,
  sleep,
  stopProcessGroup,
  verdict,
  waitForOutput,
} from './harness.ts';
import { CHROMIUM_FLAGS } from '../e2e/browser.ts';
import { putBaselinePage } from './front-end.ts';
import { IMAGE_CAMERA } from './image-delivery.ts';

/**
 * Lighthouse 12 in its default (mobile) setting, as a phone visitor meets the portal: simulated slow 4G, 4× CPU
 * slowdown, moto g power screen. Every public page of the embedded portal, in turns with the front-end
 * benchmark's plain HTML page holding only the camera's current picture (on nginx).
 */
const PAGES = [
  { name: 'home', path: '/' },
  { name: 'webcams', path: '/webcams' },
  { name: 'camera page', path: cameraPath(IMAGE_CAMERA) },
  { name: 'bestof', path: '/bestof' },
  { name: 'login', path: '/login' },
  { name: 'register', path: '/register' },
  { name: 'contact', path: '/contact' },
  { name: 'referes-list', path: '/referes-list' },
  { name: 'datenschutz', path: '/datenschutz' },
];
// The same page and path as front-end.ts writes: either benchmark may run first or alone.
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = CHROMIUM_FLAGS;
const TARGETS = {
  performance: 95,
  cls: 0.05,
  tbtMs: 150,
  lcpRatio: 1.3,
  otherScores: 100,
  homeJsKiB: 160,
};

/** What one Lighthouse run of one page gives the table, and the causes written down for whoever fixes them. */
interface Vitals {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  cls: number;
  /** CLS with every shift counted (see clsOfEveryShift). */
  clsEveryShift: number;
  /** Every shift of the load from the trace: when, how much, which element moved from where to where. */
  moves: string[];
  tbtMs: number;
  /** Transfer bytes of documents, scripts and style sheets (resource-summary), as Chromium got them (br). */
  htmlJsCssBytes: number;
  /** Same-origin scripts the page loaded (Lighthouse never interacts: all came before a first interaction). */
  scriptUrls: string[];
  lcpElement: string;
  /** LCP phases (TTFB, load delay, load time, render delay) in ms, as Lighthouse splits them. */
  lcpPhases: string;
  shifts: string;
  /** Requests that held the first paint back (render-blocking-resources), with the time they cost. */
  blocking: string;
  /** Audits under 100 % in accessibility, best practices and SEO, by category id. */
  failing: Record<string, string[]>;
}

/**
 * Lighthouse's trace, with the frame reporter's arguments also under the name Lighthouse 12.2.3 reads: Chromium
 * names them `frame_reporter` now (`chrome_frame_reporter` before), and without them its trace engine throws, which
 * takes the LCP element, the layout shifts and the render-blocking requests out of the report.
 */
class TraceForThisChromium extends TraceGatherer {
  override getArtifact() {
    const trace = super.getArtifact();
    for (const event of trace.traceEvents) {
      const args = event.args as Record<string, unknown> | undefined;
      if (event.name === 'PipelineReporter' && args?.frame_reporter && !args.chrome_frame_reporter)
        args.chrome_frame_reporter = args.frame_reporter;
    }
    return trace;
  }
}

/** The default (mobile) configuration with that trace. */
export const LIGHTHOUSE_CONFIG: Config = {
  ...defaultConfig,
  artifacts: (defaultConfig.artifacts ?? []).map((artifact) =>
    artifact.id === 'Trace' ? { id: 'Trace', gatherer: { implementation: TraceForThisChromium } } : artifact,
  ),
};

interface Chromium {
  port: number;
  close(): Promise<void>;
}

/** Chromiums running now, by process group, with their profile folders: ended even when the run is cut short. */
const running = new Map<number, string>();
process.once('exit', () => {
  for (const [group, profile] of running) {
    signalGroup(group, 'SIGKILL');
    rmSync(profile, { recursive: true, force: true });
  }
});

function signalGroup(group: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-group, signal);
    return true;
  } catch {
    // ESRCH: no process of the group is left.
    return false;
  }
}

/** Chromium in its own process group with a fresh profile folder; close() ends the group and removes the folder. */
async function launchChromium(): Promise<Chromium> {
  const profile = await mkdtemp(join(tmpdir(), 'lakecams-vitals-'));
  const child: ChildProcess = spawn(
    CHROME_PATH,
    [...CHROME_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const group = child.pid as number;
  running.set(group, profile);
  const close = async () => {
    await stopProcessGroup(child, 10_000);
    // Its helpers (zygote, renderer, network service) share the group and may outlive the browser by a moment.
    for (let i = 0; i < 50 && signalGroup(group, 0); i++) await sleep(100);
    signalGroup(group, 'SIGKILL');
    await rm(profile, { recursive: true, force: true });
    running.delete(group);
  };
  try {
    const match = await waitForOutput(child, /DevTools listening on ws:\/\/[^:]+:(\d+)\//, 30_000, 'chromium');
    // Drain the rest of its output so that a full pipe never stalls it.
    child.stderr?.resume();
    return { port: Number(match[1]), close };
  } catch (error) {
    await close();
    throw error;
  }
}

type Audit = Result['audits'][string];
type Item = Record<string, unknown>;
const itemsOf = (audit: Audit | undefined): Item[] =>
  ((audit?.details as { items?: Item[] } | undefined)?.items ?? []) as Item[];
const nodeLabel = (node: unknown) => {
  const n = node as { selector?: string; nodeLabel?: string } | undefined;
  if (!n) return '?';
  const label = (n.nodeLabel ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
  return `${n.selector ?? '?'}${label && label !== n.selector?.slice(0, 40) ? ` "${label}"` : ''}`;
};

/** What Lighthouse names as a shift's cause: a request (a late style sheet, a font) or an element. */
const causeLabel = (extra: unknown) => {
  const e = extra as { type?: string; value?: string };
  return e.type === 'url' ? new URL(String(e.value)).pathname : nodeLabel(extra);
};

type TraceEvent = { name: string; ts: number; args?: unknown };
type ShiftData = {
  weighted_score_delta?: number;
  had_recent_input?: boolean;
  impacted_nodes?: { node_id: number; old_rect: number[]; new_rect: number[] }[];
};

/** The page's layout shifts, oldest first, with their time after its navigation in ms. */
function shiftsOf(trace: { traceEvents: TraceEvent[] }): { ms: number; data: ShiftData }[] {
  type Navigation = { data?: { isLoadingMainFrame?: boolean; documentLoaderURL?: string } };
  const navigation = trace.traceEvents.find((event) => {
    const data = (event.args as Navigation | undefined)?.data;
    return (
      event.name === 'navigationStart' && data?.isLoadingMainFrame && String(data.documentLoaderURL).startsWith('http')
    );
  });
  const start = navigation?.ts ?? 0;
  return trace.traceEvents
    .filter((event) => event.name === 'LayoutShift' && event.ts >= start)
    .map((event) => ({ ts: event.ts, data: (event.args as { data?: ShiftData } | undefined)?.data ?? {} }))
    .filter((shift) => shift.data.weighted_score_delta !== undefined)
    .sort((a, b) => a.ts - b.ts)
    .map((shift) => ({ ms: (shift.ts - start) / 1000, data: shift.data }));
}

/**
 * The largest session window of layout shifts (gaps under 1 s, at most 5 s, as CLS is defined), counting every
 * shift after the navigation. Lighthouse leaves out shifts Chromium marks `had_recent_input` when they come more than
 * 500 ms after its viewport emulation. Nothing gives input, yet this Chromium marks shifts that late into the load, so
 * Lighthouse's CLS of one page varies from run to run with their timing. A phone (no emulation) counts them all.
 */
function clsOfEveryShift(shifts: { ms: number; data: ShiftData }[]): number {
  let largest = 0;
  let window = 0;
  let windowStart = 0;
  let previous = 0;
  for (const shift of shifts) {
    if (window === 0 || shift.ms - previous >= 1000 || shift.ms - windowStart >= 5000) {
      window = 0;
      windowStart = shift.ms;
    }
    window += shift.data.weighted_score_delta ?? 0;
    previous = shift.ms;
    largest = Math.max(largest, window);
  }
  return largest;
}

/** `@384 ms 0.090 main#main y 54→146` for each shift (rects are x, y, width, height; 0×0 is out of view). */
function movesOf(shifts: { ms: number; data: ShiftData }[], elements: Map<number, string>): string[] {
  return shifts.map((shift) => {
    const nodes = (shift.data.impacted_nodes ?? []).map((node) => {
      const [, oldY, , oldHeight] = node.old_rect;
      const [, newY, newWidth, newHeight] = node.new_rect;
      const to = newWidth === 0 && newHeight === 0 ? 'out of view' : `${newY} (height ${newHeight})`;
      return `${elements.get(node.node_id) ?? `node ${node.node_id}`} y ${oldY} (height ${oldHeight}) → ${to}`;
    });
    const flagged = shift.data.had_recent_input ? ', marked as after input' : '';
    return `@${Math.round(shift.ms)} ms ${(shift.data.weighted_score_delta ?? 0).toFixed(3)}${flagged}: ${nodes.join('; ')}`;
  });
}

/** The table's figures and the causes behind LCP and CLS from one Lighthouse result. */
function vitalsOf(
  lhr: Result,
  artifacts: { Trace: { traceEvents: TraceEvent[] }; TraceElements?: { nodeId: number; node: unknown }[] },
): Vitals {
  const traceShifts = shiftsOf(artifacts.Trace);
  const elements = new Map((artifacts.TraceElements ?? []).map((element) => [element.nodeId, nodeLabel(element.node)]));
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? Number.NaN) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const summary = itemsOf(lhr.audits['resource-summary']);
  const htmlJsCssBytes = summary
    .filter((item) => ['document', 'script', 'stylesheet'].includes(item.resourceType as string))
    .reduce((sum, item) => sum + Number(item.transferSize ?? 0), 0);
  const origin = new URL(lhr.finalDisplayedUrl).origin;
  const scriptUrls = itemsOf(lhr.audits['network-requests'])
    .filter((item) => item.resourceType === 'Script' && String(item.url).startsWith(origin))
    .map((item) => String(item.url));
  // largest-contentful-paint-element: a list of two tables, the element and its phases.
  const lcpTables = ((lhr.audits['largest-contentful-paint-element']?.details as { items?: { items?: Item[] }[] })
    ?.items ?? []) as { items?: Item[] }[];
  const lcpElement = nodeLabel(lcpTables[0]?.items?.[0]?.node);
  const lcpPhases = (lcpTables[1]?.items ?? [])
    .map((phase) => `${phase.phase} ${Math.round(Number(phase.timing))}`)
    .join(', ');
  // The largest shifts with the first cause Lighthouse guesses (often the request that finished just before).
  const shifts = itemsOf(lhr.audits['layout-shifts'])
    .slice(0, 2)
    .map((shift) => {
      const cause = ((shift.subItems as { items?: Item[] } | undefined)?.items ?? [])[0];
      const because = cause
        ? ` (${String(cause.cause).replace('A late network request adjusted the page layout', 'late request')}${cause.extra ? ` ${causeLabel(cause.extra)}` : ''})`
        : '';
      return `${nodeLabel(shift.node)} ${Number(shift.score).toFixed(3)}${because}`;
    })
    .join(' | ');
  const blocking = itemsOf(lhr.audits['render-blocking-resources'])
    .map((item) => `${new URL(String(item.url)).pathname} ${Math.round(Number(item.wastedMs))} ms`)
    .join(', ');
  const failing = Object.fromEntries(
    ['accessibility', 'best-practices', 'seo'].map((category) => [
      category,
      (lhr.categories[category]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => ref.id),
    ]),
  );
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: numeric('largest-contentful-paint'),
    cls: numeric('cumulative-layout-shift'),
    clsEveryShift: clsOfEveryShift(traceShifts),
    moves: movesOf(traceShifts, elements),
    tbtMs: numeric('total-blocking-time'),
    htmlJsCssBytes,
    scriptUrls,
    lcpElement,
    lcpPhases,
    shifts,
    blocking,
    failing,
  };
}

/** One Lighthouse run of one URL in a Chromium of its own, which is closed (and its profile removed) after. */
async function audit(url: string, label: string): Promise<Vitals> {
  const chromium = await launchChromium();
  try {
    const result = await lighthouse(
      url,
      {
        port: chromium.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      },
      LIGHTHOUSE_CONFIG,
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    // The whole report, for the causes the table only names (bench/.results/vitals/).
    const dir = await ensureResultsDir('vitals');
    await writeFile(join(dir, `${label.replace(/[^a-z0-9]+/gi, '-')}.json`), JSON.stringify(lhr));
    return vitalsOf(lhr, result.artifacts);
  } finally {
    await chromium.close();
  }
}

/** The body's bytes as sent with `Accept-Encoding: gzip` (the budget's unit; Chromium itself gets br). */
export function gzipBytes(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on('end', () =>
        response.statusCode === 200 ? resolve(bytes) : reject(new Error(`${url} answered ${response.statusCode}`)),
      );
      response.on('error', reject);
    }).on('error', reject);
  });
}

const medianOf = (runs: Vitals[], key: keyof Vitals) => median(runs.map((run) => run[key] as number));

export async function vitals(context: BenchContext): Promise<ResultRow[]> {
  const portal = await context.embedded();
  const nginx = await context.nginx();
  const baselineUrl = await putBaselinePage(portal, nginx);
  const targets = [
    { name: 'plain page', url: baselineUrl },
    ...PAGES.map((page) => ({ name: page.name, url: `${portal.url}${page.path}` })),
  ];
  // Unmeasured first: Chromium and Lighthouse from a cold disk, the portal's first page.
  await audit(targets[0]?.url as string, 'warm-up plain page');
  await audit(targets[1]?.url as string, 'warm-up home');
  const runs = new Map<string, Vitals[]>(targets.map((target) => [target.name, []]));
  const failures = new Map<string, unknown>();
  for (let i = 0; i < REPEATS; i++) {
    for (const target of targets) {
      if (failures.has(target.name)) continue;
      try {
        const result = await audit(target.url, `${target.name} ${i + 1}`);
        runs.get(target.name)?.push(result);
        log(
          `${target.name} #${i + 1}: performance ${result.performance}, LCP ${result.lcpMs.toFixed(0)} ms, CLS ${result.cls.toFixed(3)} (every shift ${result.clsEveryShift.toFixed(3)}), TBT ${result.tbtMs.toFixed(0)} ms`,
        );
        log(`  LCP element ${result.lcpElement}; ${result.lcpPhases}; render-blocking: ${result.blocking || 'none'}`);
        for (const move of result.moves) log(`  shift ${move}`);
      } catch (error) {
        failures.set(target.name, error);
        log(`${target.name}: ${(error as Error).message}`);
      }
    }
  }

  const baselineRuns = runs.get('plain page') ?? [];
  const baselineLcp = baselineRuns.length ? medianOf(baselineRuns, 'lcpMs') : null;
  const rows: ResultRow[] = [];
  const common = { benchmark: 'vitals', baselineLabel: 'plain HTML page' };
  for (const target of targets.slice(1)) {
    const pageRuns = runs.get(target.name) ?? [];
    if (failures.has(target.name) || pageRuns.length === 0) {
      rows.push(
        row({
          ...common,
          case: target.name,
          metric: 'Lighthouse (mobile)',
          unit: '',
          portal: null,
          baseline: null,
          verdict: 'not measured',
          note: `failed: ${(failures.get(target.name) as Error | undefined)?.message.split('\n')[0] ?? 'no run'}`,
        }),
      );
      continue;
    }
    const m = (key: keyof Vitals) => medianOf(pageRuns, key);
    const base = (key: keyof Vitals) => (baselineRuns.length ? medianOf(baselineRuns, key) : null);
    // The causes written beside a median come from the run nearest to it.
    const nearest = (key: 'lcpMs' | 'cls' | 'performance') =>
      [...pageRuns].sort((a, b) => Math.abs(a[key] - m(key)) - Math.abs(b[key] - m(key)))[0];
    const typical = nearest('performance');
    const lcp = m('lcpMs');
    const cls = m('cls');
    const tbt = m('tbtMs');
    const performance = m('performance');
    rows.push(
      row({
        ...common,
        case: target.name,
        metric: 'performance score',
        unit: 'count',
        portal: performance,
        baseline: base('performance'),
        target: `≥ ${TARGETS.performance}`,
        verdict: verdict(performance >= TARGETS.performance),
      }),
      row({
        ...common,
        case: target.name,
        metric: 'LCP',
        unit: 'ms',
        portal: lcp,
        baseline: baselineLcp,
        target: `≤ ${TARGETS.lcpRatio}× baseline`,
        verdict: baselineLcp === null ? 'info' : verdict(lcp <= TARGETS.lcpRatio * baselineLcp),
        note: `${nearest('lcpMs')?.lcpElement}; ${nearest('lcpMs')?.lcpPhases}`,
      }),
      row({
        ...common,
        case: target.name,
        metric: 'CLS',
        unit: '',
        portal: cls,
        baseline: base('cls'),
        target: `≤ ${TARGETS.cls}`,
        verdict: verdict(cls <= TARGETS.cls),
        note: nearest('cls')?.shifts ?? '',
      }),
      row({
        ...common,
        case: target.name,
        metric: 'CLS, every shift counted',
        unit: '',
        portal: m('clsEveryShift'),
        baseline: base('clsEveryShift'),
        target: `≤ ${TARGETS.cls}`,
        verdict: verdict(m('clsEveryShift') <= TARGETS.cls),
        note: 'as a phone counts them: also the shifts Lighthouse drops for its emulation',
      }),
      row({
        ...common,
        case: target.name,
        metric: 'TBT',
        unit: 'ms',
        portal: tbt,
        baseline: base('tbtMs'),
        target: `≤ ${TARGETS.tbtMs} ms`,
        verdict: verdict(tbt <= TARGETS.tbtMs),
      }),
      row({
        ...common,
        case: target.name,
        metric: 'HTML+JS+CSS transferred',
        unit: 'KiB',
        portal: m('htmlJsCssBytes') / 1024,
        baseline: (base('htmlJsCssBytes') ?? Number.NaN) / 1024,
        note: 'as Chromium got them (br)',
      }),
    );
    for (const [metric, key, category] of [
      ['accessibility', 'accessibility', 'accessibility'],
      ['best practices', 'bestPractices', 'best-practices'],
      ['SEO', 'seo', 'seo'],
    ] as const) {
      const value = m(key);
      const failing = typical?.failing[category]?.join(', ');
      rows.push(
        row({
          ...common,
          case: target.name,
          metric: `${metric} score`,
          unit: 'count',
          portal: value,
          baseline: base(key),
          target: `= ${TARGETS.otherScores}`,
          verdict: verdict(value >= TARGETS.otherScores),
          note: failing ? `failing: ${failing}` : '',
        }),
      );
    }
    if (target.name === 'home') {
      const kib = median(
        await Promise.all(
          pageRuns.map(async (run) => (await Promise.all(run.scriptUrls.map(gzipBytes))).reduce((a, b) => a + b, 0)),
        ),
      );
      rows.push(
        row({
          ...common,
          case: target.name,
          metric: 'JS before first interaction (gzip)',
          unit: 'KiB',
          portal: kib / 1024,
          baseline: 0,
          target: `≤ ${TARGETS.homeJsKiB} KiB`,
          verdict: verdict(kib / 1024 <= TARGETS.homeJsKiB),
          note: `${typical?.scriptUrls.length} scripts Lighthouse saw load (it never interacts), fetched again with gzip`,
        }),
      );
    }
  }
  if (baselineLcp === null)
    rows.push(
      row({
        ...common,
        case: 'plain page',
        metric: 'Lighthouse (mobile)',
        unit: '',
        portal: null,
        baseline: null,
        verdict: 'not measured',
        note: `the baseline failed: ${(failures.get('plain page') as Error | undefined)?.message.split('\n')[0]}`,
      }),
    );
  return rows;
}
