import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Shared pieces of the benchmarks: tools, wrk, medians, process memory, result rows. */

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const RESULTS_DIR = join(ROOT, 'bench', '.results');
/** `BENCH_PROFILE=1` starts the portal processes with `--cpu-prof`; profiles land here. */
export const PROFILE_DIR = join(RESULTS_DIR, 'profiles');
export const PROFILING = process.env.BENCH_PROFILE === '1';
/** Repetitions of every measurement; the median is reported. */
export const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
/** Seconds of each wrk measurement. */
export const WRK_SECONDS = Number(process.env.BENCH_WRK_SECONDS ?? 8);

export type Verdict = 'met' | 'missed' | 'info' | 'not measured';

/** One line of the final table: the portal's figure beside the baseline of the same run. */
export interface ResultRow {
  benchmark: string;
  case: string;
  metric: string;
  unit: string;
  portal: number | null;
  baseline: number | null;
  baselineLabel: string;
  /** portal ÷ baseline (null without a baseline). */
  ratio: number | null;
  target?: string;
  verdict: Verdict;
  note?: string;
}

export function row(fields: Omit<ResultRow, 'ratio' | 'verdict'> & { verdict?: Verdict }): ResultRow {
  const ratio =
    fields.portal !== null && fields.baseline !== null && fields.baseline !== 0
      ? fields.portal / fields.baseline
      : null;
  return { ...fields, ratio, verdict: fields.verdict ?? 'info' };
}

export const verdict = (met: boolean): Verdict => (met ? 'met' : 'missed');

/** The row a benchmark gets when it could not run, with the first line of why. */
export function notMeasured(
  fields: { benchmark: string; case: string; metric?: string; unit?: string; baselineLabel?: string },
  error: unknown,
): ResultRow {
  return row({
    metric: '',
    unit: '',
    baselineLabel: '',
    ...fields,
    portal: null,
    baseline: null,
    verdict: 'not measured',
    note: `failed: ${(error as Error).message.split('\n')[0]}`,
  });
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function log(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

export async function ensureResultsDir(...parts: string[]): Promise<string> {
  const dir = join(RESULTS_DIR, ...parts);
  await mkdir(dir, { recursive: true });
  return dir;
}

// ---------------------------------------------------------------------------------------------------------------
// Debian tools

let aptUpdated = false;

/** Install a Debian package with apt-get when its binary is missing (the harness needs nginx and wrk). */
export function ensureDebianPackage(binary: string, debianPackage: string): string {
  const found = [binary, `/usr/sbin/${binary}`, `/usr/bin/${binary}`].find((candidate) =>
    candidate.startsWith('/') ? existsSync(candidate) : spawnSync('which', [candidate]).status === 0,
  );
  if (found) return found.startsWith('/') ? found : execFileSync('which', [found]).toString().trim();
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const run = (args: string[]) => {
    const [command, ...rest] = [...sudo, ...args] as [string, ...string[]];
    const result = spawnSync(command, rest, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (result.status !== 0) throw new Error(`${args.join(' ')} failed; install ${debianPackage} by hand`);
  };
  log(`${binary} is missing: installing the Debian package ${debianPackage}`);
  if (!aptUpdated) {
    run(['apt-get', 'update']);
    aptUpdated = true;
  }
  run(['apt-get', 'install', '-y', '--no-install-recommends', debianPackage]);
  return ensureDebianPackage(binary, debianPackage);
}

// ---------------------------------------------------------------------------------------------------------------
// wrk

export interface WrkResult {
  requests: number;
  requestsPerSecond: number;
  /** Latencies in milliseconds. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Socket errors, timeouts and answers other than 2xx/3xx. */
  errors: number;
  /** The errors by kind, e.g. `status 21, timeout 3` (empty without errors). */
  errorKinds: string;
  bytesPerRequest: number;
}

const WRK_REPORT = join(ROOT, 'bench', 'wrk-report.lua');

export interface WrkOptions {
  connections: number;
  seconds?: number;
  threads?: number;
  headers?: Record<string, string>;
}

/** Run wrk against one URL; its Lua `done` hook prints the figures as JSON. */
export function wrk(url: string, options: WrkOptions): Promise<WrkResult> {
  const binary = ensureDebianPackage('wrk', 'wrk');
  const args = [
    `-t${options.threads ?? 2}`,
    `-c${options.connections}`,
    `-d${options.seconds ?? WRK_SECONDS}s`,
    '--timeout',
    '5s',
    '-s',
    WRK_REPORT,
    ...Object.entries(options.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    url,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = /WRK_JSON (\{.*\})/.exec(output)?.[1];
      if (code !== 0 || !line) return reject(new Error(`wrk ${args.join(' ')} failed (${code}):\n${output}`));
      const raw = JSON.parse(line) as Record<string, number>;
      const n = (key: string) => raw[key] ?? 0;
      resolve({
        requests: n('requests'),
        requestsPerSecond: n('requests') / (n('duration_us') / 1e6),
        p50: n('p50') / 1000,
        p90: n('p90') / 1000,
        p99: n('p99') / 1000,
        max: n('max') / 1000,
        errors: n('connect') + n('read') + n('write') + n('status') + n('timeout'),
        errorKinds: ['connect', 'read', 'write', 'status', 'timeout']
          .filter((kind) => n(kind) > 0)
          .map((kind) => `${kind === 'status' ? 'non-2xx/3xx' : kind} ${n(kind)}`)
          .join(', '),
        bytesPerRequest: n('requests') ? n('bytes') / n('requests') : 0,
      });
    });
  });
}

/** The median of each figure over several wrk runs (errors are summed: any error counts). */
export function medianOfRuns(runs: WrkResult[]): WrkResult {
  const pick = (key: Exclude<keyof WrkResult, 'errorKinds'>) => median(runs.map((r) => r[key]));
  return {
    requests: pick('requests'),
    requestsPerSecond: pick('requestsPerSecond'),
    p50: pick('p50'),
    p90: pick('p90'),
    p99: pick('p99'),
    max: pick('max'),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    errorKinds: runs
      .map((r) => r.errorKinds)
      .filter(Boolean)
      .join('; '),
    bytesPerRequest: pick('bytesPerRequest'),
  };
}

/**
 * Measure several targets in turns (A B C, A B C, …) so that noise from other work on the machine falls on
 * all of them alike; a short unmeasured run warms each target first.
 */
export async function wrkInTurns(
  targets: { label: string; url: string; headers?: Record<string, string> }[],
  options: Omit<WrkOptions, 'headers'>,
  repeats = REPEATS,
): Promise<Record<string, WrkResult>> {
  for (const target of targets) await wrk(target.url, { ...options, seconds: 2, headers: target.headers ?? {} });
  const runs: Record<string, WrkResult[]> = Object.fromEntries(targets.map((t) => [t.label, []]));
  for (let i = 0; i < repeats; i++) {
    for (const target of targets) {
      const result = await wrk(target.url, { ...options, headers: target.headers ?? {} });
      runs[target.label]?.push(result);
      log(
        `  ${target.label} c=${options.connections}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, ${result.errors} errors`,
      );
    }
  }
  return Object.fromEntries(Object.entries(runs).map(([label, r]) => [label, medianOfRuns(r)]));
}

// ---------------------------------------------------------------------------------------------------------------
// Processes and memory

/** Resident set size now and its peak (VmHWM), in MiB, from /proc. */
export function memoryOf(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** Child processes of `pid` (direct children only). */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return children;
}

/** All descendants of `pid`. */
export function descendantsOf(pid: number): number[] {
  const direct = childrenOf(pid);
  return [...direct, ...direct.flatMap(descendantsOf)];
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** Samples the RSS of some processes until stopped; returns each one's largest sample in MiB. */
export function sampleRss(pids: () => number[], intervalMs = 200) {
  const peaks = new Map<number, number>();
  let total = 0;
  const take = () => {
    let sum = 0;
    for (const pid of pids()) {
      const memory = memoryOf(pid);
      if (!memory) continue;
      sum += memory.rss;
      peaks.set(pid, Math.max(peaks.get(pid) ?? 0, memory.rss));
    }
    total = Math.max(total, sum);
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop(): { peaks: Map<number, number>; peakTotal: number } {
      clearInterval(timer);
      take();
      return { peaks, peakTotal: total };
    },
  };
}

/** Wait until the processes use less than `share` of one core over a second (e.g. demo backfill finished). */
export async function waitUntilQuiet(pids: () => number[], share = 0.15, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const before = pids().reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
    await sleep(1000);
    const after = pids().reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
    if (after - before < share) return;
  }
  log('processes did not become quiet; measuring anyway');
}

/** Wait for a line on a child's output matching `pattern`; returns the match. */
export function waitForOutput(
  child: ChildProcess,
  pattern: RegExp,
  timeoutMs: number,
  label: string,
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`${label} did not start within ${timeoutMs / 1000} s:\n${output.slice(-4000)}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = pattern.exec(output);
      if (match) {
        cleanup();
        resolve(match);
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`${label} exited (${code}) while starting:\n${output.slice(-4000)}`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Stop a process group we started and wait for its leader to exit. */
export async function stopProcessGroup(
  child: ChildProcess,
  timeoutMs = 20_000,
  /** Only the leader gets SIGTERM (it stops its own children); the group is killed only after the timeout. */
  leaderOnly = false,
): Promise<void> {
  if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (name: NodeJS.Signals, group = true) => {
    try {
      process.kill(group ? -(child.pid as number) : (child.pid as number), name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  };
  signal('SIGTERM', !leaderOnly);
  const timedOut = await Promise.race([exited.then(() => false), sleep(timeoutMs).then(() => true)]);
  if (timedOut) {
    signal('SIGKILL');
    await exited;
  }
}

/** The Node binary running the harness (Node 24 from the project's devDependency under npm scripts). */
export const NODE = process.execPath;

/** `--cpu-prof` flags when profiling is on. */
export function profileFlags(label: string): string[] {
  return PROFILING
    ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`, `--cpu-prof-name=${label}-${Date.now()}.cpuprofile`]
    : [];
}

export async function fetchOk(url: string, init?: RequestInit): Promise<Response> {
  const response = await fetch(url, init);
  if (!response.ok)
    throw new Error(`${init?.method ?? 'GET'} ${url} answered ${response.status}: ${await response.text()}`);
  return response;
}

/** A small Node server of the harness in its own process (baselines); it prints `<marker> <url>` when listening. */
export async function startNodeServer(
  script: string,
  env: Record<string, string>,
  marker: string,
): Promise<{ url: string; pid: number; close(): Promise<void> }> {
  const child = spawn(NODE, [...profileFlags(marker.toLowerCase()), join(ROOT, 'bench', script)], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const match = await waitForOutput(child, new RegExp(`${marker} (\\S+)\\n`), 30_000, script);
  return { url: match[1] as string, pid: child.pid as number, close: () => stopProcessGroup(child) };
}
