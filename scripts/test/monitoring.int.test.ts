import { SERVICES } from '@lakecams/contracts';
import { createTestDatabase, freePort, TEST_DATABASE_SERVER, testDatabasePrefix } from '@lakecams/service-kit/testing';
import { camerasHealth, imagingPartsOf, offlineReason } from '@lakecams/svc-imaging/testing';
import { DEMO_CAMERAS } from '@lakecams/svc-webcam/testing';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { type RunningPortal, startPortal } from '../portal.ts';

const MONITORING = new URL('../../deploy/monitoring/', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, MONITORING), 'utf8');

/** Series Prometheus makes itself rather than scraping them. */
const PROMETHEUS_OWN = new Set(['up']);
const PROMQL_WORDS = new Set([
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'inf',
  'nan',
  'atan2',
]);

/**
 * Metric names a PromQL expression reads: identifiers that are neither functions (followed by `(`), nor
 * keywords, nor label names (inside `{…}` or a `by (…)`-style list), nor strings, ranges or Grafana variables.
 */
function metricNamesIn(expr: string): Set<string> {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\$\{?\w+\}?/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const [, name, call] of bare.matchAll(/(?<![\w.:])([A-Za-z_:][\w:]*)(\s*\()?/g)) {
    if (!call && !PROMQL_WORDS.has((name as string).toLowerCase())) names.add(name as string);
  }
  return names;
}

type Dashboard = {
  panels: DashboardPanel[];
  templating: { list: { type: string; query?: string | { query: string } }[] };
};
type DashboardPanel = { title: string; targets?: { expr: string }[]; panels?: DashboardPanel[] };

function dashboardQueries(dashboard: Dashboard): string[] {
  const panels = (list: DashboardPanel[]): DashboardPanel[] => list.flatMap((p) => [p, ...panels(p.panels ?? [])]);
  const exprs = panels(dashboard.panels).flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
  // Variables: label_values(<metric>, <label>) reads a metric too.
  for (const variable of dashboard.templating.list) {
    if (variable.type !== 'query') continue;
    const query = typeof variable.query === 'string' ? variable.query : (variable.query?.query ?? '');
    const metric = /^label_values\(\s*([^,]+),/.exec(query)?.[1];
    if (metric) exprs.push(metric);
  }
  return exprs;
}

type Rule = {
  alert?: string;
  expr?: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
};
type RulesFile = { groups: { name: string; rules: Rule[] }[] };

/** Families announced by `# TYPE` lines, and the samples, of a Prometheus text exposition. */
function exposition(text: string) {
  const types = new Map<string, string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) types.set(name as string, type as string);
  const samples = [...text.matchAll(/^([A-Za-z_:][\w:]*)(\{[^}]*\})? (\S+)$/gm)].map(([, name, labels, value]) => ({
    name: name as string,
    labels: labels ?? '',
    value: Number(value),
  }));
  return { types, samples };
}

/** A referenced name is exported as itself, or as a histogram's or summary's series. */
function isExported(name: string, types: Map<string, string>): boolean {
  if (types.has(name)) return true;
  const series = /^(.*)_(bucket|sum|count)$/.exec(name);
  if (!series) return false;
  const type = types.get(series[1] as string);
  return type === 'histogram' || (type === 'summary' && series[2] !== 'bucket');
}

/** The status of a GET sent with `path` exactly as written (dot segments too, which `fetch` would resolve). */
function rawStatus(baseUrl: string, path: string): Promise<number> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const sent = request({ host: hostname, port, path, agent: false }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve(answer.statusCode ?? 0));
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** Ways a visitor may ask the public port for metrics: directly, and through a service's /api path. */
const PUBLIC_METRICS_PATHS = [
  '/metrics',
  '/metrics?x=1',
  '/api/Webcam/../../metrics',
  '/api/Webcam/%2e%2e/%2e%2e/metrics',
  '/api/Image/../../metrics',
  '/pictures/../metrics',
];

async function expectNoMetricsAt(publicUrl: string) {
  for (const path of PUBLIC_METRICS_PATHS) expect(await rawStatus(publicUrl, path), path).toBe(404);
  const direct = await fetch(`${publicUrl}/metrics`);
  expect(direct.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await direct.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Route GET /metrics not found' });
  expect((await fetch(`${publicUrl}/metrics`, { method: 'HEAD' })).status).toBe(404);
}

const dashboard = JSON.parse(read('grafana-dashboard.json')) as Dashboard;
const rules = parse(read('alerts.yaml')) as RulesFile;
const alertExprs = rules.groups.flatMap((group) => group.rules.map((rule) => rule.expr ?? ''));
const namesOf = (exprs: string[]) => new Set(exprs.flatMap((expr) => [...metricNamesIn(expr)]));

describe('metric names in PromQL', () => {
  it('finds the metrics, not the functions, keywords, labels, ranges or variables', () => {
    const expr = `histogram_quantile(0.99, sum by (service, le) (rate(a_seconds_bucket{route!~"/x|y"}[$__rate_interval])))
      > 1 and on (service) sum(rate(b_total[5m] offset 1h)) / ignoring(x) group_left c_gauge > bool 1e3 unless d`;
    expect([...metricNamesIn(expr)].sort()).toEqual(['a_seconds_bucket', 'b_total', 'c_gauge', 'd']);
  });
});

describe('alert rules', () => {
  it('have the shape Prometheus loads: groups of rules with alert, expr, for, severity and summary', () => {
    expect(rules.groups.length).toBeGreaterThan(0);
    const names = new Set<string>();
    for (const group of rules.groups) {
      expect(group.name).toMatch(/^\S+$/);
      expect(group.rules.length, group.name).toBeGreaterThan(0);
      for (const rule of group.rules) {
        expect(Object.keys(rule).sort(), rule.alert).toEqual(['alert', 'annotations', 'expr', 'for', 'labels']);
        expect(rule.alert).toMatch(/^[A-Z][A-Za-z]+$/);
        expect(names.has(rule.alert as string), `${rule.alert} twice`).toBe(false);
        names.add(rule.alert as string);
        expect(rule.expr?.trim(), rule.alert).toBeTruthy();
        expect(rule.for, rule.alert).toMatch(/^\d+[smh]$/);
        expect(['critical', 'warning', 'info'], rule.alert).toContain(rule.labels?.severity);
        expect(rule.annotations?.summary?.trim(), rule.alert).toBeTruthy();
        // Every {{ … }} in an annotation is one of Prometheus's template values.
        for (const text of Object.values(rule.annotations ?? {})) {
          for (const [, inner] of text.matchAll(/\{\{(.*?)\}\}/g))
            expect(inner, rule.alert).toMatch(/^\s*\$(labels\.\w+|value)\b/);
        }
      }
    }
  });

  it('watch offline cameras, capture failures, the outbox, readiness, errors and p99', () => {
    const used = namesOf(alertExprs);
    for (const name of [
      'lakecams_camera_last_capture_timestamp_seconds',
      'lakecams_camera_capture_interval_seconds',
      'lakecams_captures_total',
      'lakecams_outbox_oldest_event_age_seconds',
      'lakecams_ready',
      'up',
      'http_request_duration_seconds_count',
      'http_request_duration_seconds_bucket',
    ]) {
      expect(used, name).toContain(name);
    }
    expect(alertExprs.some((expr) => expr.includes('status_code=~"5.."'))).toBe(true);
    expect(alertExprs.some((expr) => expr.includes('histogram_quantile(0.99'))).toBe(true);
  });
});

describe('the dashboard and the alert rules, against the metrics a running portal exports', () => {
  const databases = testDatabasePrefix();
  let portal: RunningPortal;
  /** `lakecams_camera_last_capture_timestamp_seconds` of every demo camera. */
  let pictures: { name: string; labels: string; value: number }[];

  beforeAll(async () => {
    portal = await startPortal({
      port: 0,
      metrics: { host: '127.0.0.1', port: 0 },
      logLevel: 'silent',
      databaseServerUrl: TEST_DATABASE_SERVER,
      databasePrefix: databases.prefix,
      schedule: false,
      // The demo cameras' first pictures are captures: they fill the capture and camera metrics.
      demoBackfillMinutes: 10,
    });
    // Until every demo camera has its first picture.
    const delivered = async () => {
      const { samples } = exposition(await portal.services.imaging.metrics.metrics());
      const found = samples.filter((s) => s.name === 'lakecams_camera_last_capture_timestamp_seconds');
      return found.length === DEMO_CAMERAS.length ? found : null;
    };
    pictures = await vi.waitUntil(delivered, { timeout: 90_000, interval: 250 });
  }, 150_000);

  afterAll(async () => {
    await portal?.close();
    await databases.dropAll(SERVICES);
  });

  /** One scrape of the metrics port, as Prometheus reads it, split by app (`service` label). */
  async function scrapeAll() {
    const answer = await fetch(`${portal.metricsUrl}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const { types, samples } = exposition(await answer.text());
    return Object.fromEntries(
      ['gateway', ...SERVICES].map((app) => [
        app,
        { types, samples: samples.filter((s) => s.labels.includes(`service="${app}"`)) },
      ]),
    );
  }

  it('serves no metrics on the public port, not even through a service path, only on the metrics port', async () => {
    await expectNoMetricsAt(portal.url);
    expect(portal.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new URL(portal.metricsUrl as string).port).not.toBe(new URL(portal.url).port);
    // The five apps of the process in one answer, each family announced once as Prometheus requires.
    const text = await (await fetch(`${portal.metricsUrl}/metrics`)).text();
    const families = [...text.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]);
    expect(families.length).toBeGreaterThan(10);
    expect(new Set(families).size).toBe(families.length);
    for (const app of ['gateway', ...SERVICES]) expect(text, app).toContain(`service="${app}"`);
    expect(await rawStatus(portal.metricsUrl as string, '/health')).toBe(404);
  });

  it('exports every metric the dashboard and the rules read, after captures and picture requests', async () => {
    const imaging = portal.services.imaging;
    const camera = /camera="([^"]+)"/.exec(pictures[0]?.labels ?? '')?.[1] as string;

    // A picture as a browser asks for it: the entitlement URL through the gateway, then its name; then the
    // name once more from svc-imaging itself, past whatever the gateway keeps.
    const entitlement = await fetch(`${portal.url}/api/Image/Get/camera/${encodeURIComponent(camera)}.jpg`, {
      redirect: 'manual',
    });
    expect(entitlement.status).toBe(302);
    const picture = new URL(entitlement.headers.get('location') as string, portal.url);
    expect((await fetch(picture)).status).toBe(200);
    expect((await imaging.inject({ url: `${picture.pathname}${picture.search}` })).statusCode).toBe(200);

    const apps = await scrapeAll();
    const exported = new Map<string, string>();
    for (const { types } of Object.values(apps)) for (const [name, type] of types) exported.set(name, type);

    const referenced = namesOf([...dashboardQueries(dashboard), ...alertExprs]);
    // Not vacuous: the dashboard's panels and the rules name the portal's own metrics.
    expect(referenced.size).toBeGreaterThan(10);
    const missing = [...referenced].filter((name) => !PROMETHEUS_OWN.has(name) && !isExported(name, exported));
    expect(missing).toEqual([]);
    // The dashboard shows everything the rules alert on.
    const shown = namesOf(dashboardQueries(dashboard));
    for (const name of namesOf(alertExprs)) expect(shown, name).toContain(name);

    const value = (app: string, name: string, labels = '') =>
      apps[app]?.samples.find((s) => s.name === name && s.labels.includes(labels))?.value;
    // Every app says it is ready; every service reports its outbox and each durable consumer it reads.
    for (const app of ['gateway', ...SERVICES]) expect(value(app, 'lakecams_ready'), app).toBe(1);
    for (const service of SERVICES) {
      expect(value(service, 'lakecams_outbox_pending_events'), service).toBeGreaterThanOrEqual(0);
      expect(value(service, 'lakecams_outbox_oldest_event_age_seconds'), service).toBeGreaterThanOrEqual(0);
      const consumers = apps[service]?.samples.filter((s) => s.name === 'lakecams_bus_consumer_pending_messages');
      expect(consumers?.length, service).toBeGreaterThan(0);
      for (const consumer of consumers ?? []) expect(consumer.labels).toMatch(new RegExp(`consumer="svc-${service}-`));
    }
    // The camera's latest picture is recent, its interval known, and it is not counted offline.
    const last = value('imaging', 'lakecams_camera_last_capture_timestamp_seconds', `camera="${camera}"`);
    expect(Date.now() / 1000 - (last ?? 0)).toBeLessThan(600);
    expect(value('imaging', 'lakecams_camera_capture_interval_seconds', `camera="${camera}"`)).toBeGreaterThan(0);
    expect(value('imaging', 'lakecams_cameras_offline', 'reason="silent"')).toBe(0);
    expect(value('imaging', 'lakecams_captures_total', 'outcome="ok"')).toBeGreaterThanOrEqual(pictures.length);
    expect(value('imaging', 'lakecams_capture_duration_seconds_count', 'outcome="ok"')).toBeGreaterThanOrEqual(
      pictures.length,
    );
    // The picture was read from the store once, then from memory.
    expect(value('imaging', 'lakecams_picture_cache_lookups_total', 'cache="recent",result="miss"')).toBeGreaterThan(0);
    expect(value('imaging', 'lakecams_picture_cache_lookups_total', 'cache="recent",result="hit"')).toBeGreaterThan(0);
  });

  it('counts offline cameras by the rule the job dashboard and the offline layers use', async () => {
    const imaging = portal.services.imaging;
    const captures = imagingPartsOf(imaging).captures;
    const cameras = await imagingPartsOf(imaging).cameraDirectory.list();
    const dayLater = new Date(Date.now() + 24 * 60 * 60_000);
    // Now every camera has delivered; a day later every one is silent.
    for (const at of [new Date(), dayLater]) {
      const health = await camerasHealth(captures, at);
      expect(health.map((camera) => camera.name).sort()).toEqual(cameras.map((camera) => camera.name).sort());
      for (const camera of cameras) {
        const judged = health.find((h) => h.name === camera.name)?.offline;
        expect(judged, camera.name).toBe(await offlineReason(captures, camera, at));
      }
    }
    expect(new Set((await camerasHealth(captures, dayLater)).map((camera) => camera.offline))).toEqual(
      new Set(['silent']),
    );
  });
});

describe('a service and the gateway as processes of their own (distributed mode)', () => {
  const ROOT = fileURLToPath(new URL('../..', import.meta.url));
  const running: ChildProcess[] = [];
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const ports = { webcam: 0, webcamMetrics: 0, gateway: 0, gatewayMetrics: 0 };
  const url = (port: number) => `http://127.0.0.1:${port}`;

  function start(script: string, env: Record<string, string>): void {
    const child = spawn(process.execPath, [script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    running.push(child);
  }

  beforeAll(async () => {
    database = await createTestDatabase('webcam');
    for (const key of Object.keys(ports) as (keyof typeof ports)[]) ports[key] = await freePort();
    start('svc-webcam/src/server.ts', {
      PORT: String(ports.webcam),
      METRICS_PORT: String(ports.webcamMetrics),
      DATABASE_URL_WEBCAM: database.url,
      DEMO_CAMERAS: 'false',
    });
    // Every service "lives" at svc-webcam: the gateway forwards each /api path there.
    const targets = Object.fromEntries(SERVICES.map((s) => [`SERVICE_URL_${s.toUpperCase()}`, url(ports.webcam)]));
    start('gateway/src/server.ts', {
      PORT: String(ports.gateway),
      METRICS_PORT: String(ports.gatewayMetrics),
      FRONTEND_ROOT: tmpdir(),
      ...targets,
    });
    for (const port of [ports.webcam, ports.gateway]) {
      await vi.waitUntil(async () => (await fetch(`${url(port)}/health`).catch(() => null))?.ok, {
        timeout: 45_000,
        interval: 100,
      });
    }
  }, 60_000);

  afterAll(async () => {
    await Promise.all(
      running
        .filter((child) => child.exitCode === null && child.signalCode === null)
        .map((child) => {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          return exited;
        }),
    );
    await database?.drop();
  });

  it('answers 404 for metrics on the public ports, the gateway forwarding nothing to a service', async () => {
    await expectNoMetricsAt(url(ports.gateway));
    await expectNoMetricsAt(url(ports.webcam));
  });

  it('serves the metrics of each process on its METRICS_PORT', async () => {
    for (const [port, service] of [
      [ports.webcamMetrics, 'webcam'],
      [ports.gatewayMetrics, 'gateway'],
    ] as const) {
      const answer = await fetch(`${url(port)}/metrics`);
      expect(answer.status, service).toBe(200);
      const { types, samples } = exposition(await answer.text());
      expect(types.get('http_request_duration_seconds'), service).toBe('histogram');
      expect(samples.length, service).toBeGreaterThan(0);
      for (const sample of samples)
        expect(sample.labels, `${service} ${sample.name}`).toContain(`service="${service}"`);
    }
  });
});
