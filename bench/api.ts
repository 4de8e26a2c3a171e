import { imageNameOf } from '@lakecams/contracts';
import pg from 'pg';
import type { BenchContext } from './context.ts';
import { fetchOk, log, type ResultRow, row, sleep, startNodeServer, verdict, wrkInTurns } from './harness.ts';
import { adminClient, type BenchPortal } from './portals.ts';
import { createTestClient } from '@lakecams/service-kit/testing';
import { DEMO_CAMERAS } from '@lakecams/svc-webcam/testing';

export const API_PATH = '/api/Webcam/GetImages';
export const SEEDED_CAMERAS = 1000;
const API_CAMERAS = '/api/Webcam/GetCameras';

/**
 * Bring the camera list to `total` cameras with an image each, written straight into svc-webcam's database:
 * cameras and one row of its image projection. svc-imaging never hears of them, so nothing is captured and
 * the benchmark measures the list alone.
 */
export async function seedCameras(portal: BenchPortal, total = SEEDED_CAMERAS): Promise<number> {
  const listed = ((await (await fetchOk(`${portal.url}${API_PATH}`)).json()) as unknown[]).length;
  const missing = total - listed;
  if (missing > 0) {
    const client = new pg.Client({ connectionString: portal.webcamDatabaseUrl });
    await client.connect();
    try {
      await client.query(
        `with created as (
           insert into webcams (name, pattern, distance, angle, interval_min, webcam_type)
           select 'Bench-' || lpad(i::text, 4, '0'), 'http://127.0.0.1:9/bench/' || i || '.jpg', 5, 60, 60, 'STATIC'
           from generate_series(1, $1::int) as i
           on conflict (name) do nothing
           returning id)
         insert into webcam_images (webcam_id, name, lat, lng, direction)
         select id, $2, 47.15 + random() * 0.15, 8.55 + random() * 0.35, floor(random() * 360)::int from created`,
        [missing, imageNameOf(new Date())],
      );
    } finally {
      await client.end();
    }
  }
  // svc-webcam keeps the serialized list in memory until a camera is saved: save one unchanged so it forgets.
  const admin = await adminClient(portal);
  const [camera] = (await admin.get(`${API_CAMERAS}?name=${DEMO_CAMERAS[0]?.name}`)).json as object[];
  const webcam = createTestClient(portal.serviceUrl('webcam'));
  webcam.setToken(admin.user.jwtToken);
  const saved = await webcam.post('/api/Webcam/Set', camera);
  if (saved.status !== 200) throw new Error(`saving a camera answered ${saved.status}: ${saved.text}`);
  let now = 0;
  for (let i = 0; i < 40 && now < total; i++) {
    if (i > 0) await sleep(250);
    now = ((await (await fetchOk(`${portal.url}${API_PATH}`)).json()) as unknown[]).length;
  }
  log(`camera list of the ${portal.mode} portal: ${now} cameras`);
  if (now < total) throw new Error(`the camera list shows ${now} cameras after seeding ${total}`);
  return now;
}

/** GetImages with 1000 cameras at 50 connections, against plain node:http + pg running the same queries. */
export async function api(context: BenchContext): Promise<ResultRow[]> {
  const portal = await context.embedded();
  const cameras = await seedCameras(portal);
  context.seededCameras = cameras;
  const baseline = await startNodeServer(
    'api-baseline-server.ts',
    { BASELINE_DATABASE_URL: portal.webcamDatabaseUrl },
    'BASELINE_URL',
  );
  try {
    const sizes = await Promise.all(
      [portal.url + API_PATH, baseline.url].map(async (url) => (await (await fetchOk(url)).arrayBuffer()).byteLength),
    );
    log(`GetImages body: portal ${sizes[0]} bytes, baseline ${sizes[1]} bytes`);
    // What serving the list from memory could reach: nginx sending a static copy of the same bytes.
    const nginx = await context.nginx();
    await nginx.put(API_PATH, Buffer.from(await (await fetchOk(`${portal.url}${API_PATH}`)).arrayBuffer()));
    // As a browser asks (the portal may answer gzip; the baselines answer uncompressed).
    const headers = { 'accept-encoding': 'gzip, deflate, br' };
    const encoding = (await fetchOk(`${portal.url}${API_PATH}`, { headers })).headers.get('content-encoding');
    const results = await wrkInTurns(
      [
        { label: 'baseline', url: baseline.url, headers },
        { label: 'portal', url: `${portal.url}${API_PATH}`, headers },
        { label: 'static', url: `${nginx.url}${API_PATH}`, headers },
      ],
      { connections: 50 },
    );
    const [p, b, n] = [results.portal, results.baseline, results.static] as const;
    if (!p || !b || !n) throw new Error('wrk gave no result');
    const common = {
      benchmark: 'API',
      case: `GetImages, ${cameras} cameras, 50 conn.`,
      baselineLabel: 'node:http + pg',
    };
    return [
      row({
        ...common,
        metric: 'requests/s',
        unit: 'req/s',
        portal: p.requestsPerSecond,
        baseline: b.requestsPerSecond,
      }),
      row({ ...common, metric: 'p50 latency', unit: 'ms', portal: p.p50, baseline: b.p50 }),
      row({
        ...common,
        metric: 'p99 latency',
        unit: 'ms',
        portal: p.p99,
        baseline: b.p99,
        target: '≤ 20 ms',
        verdict: verdict(p.p99 <= 20),
      }),
      row({
        ...common,
        metric: 'p99 latency',
        unit: 'ms',
        portal: p.p99,
        baseline: n.p99,
        baselineLabel: 'nginx, static copy',
        note: `static copy: ${n.requestsPerSecond.toFixed(0)} req/s`,
      }),
      row({
        ...common,
        metric: 'errors',
        unit: 'count',
        portal: p.errors,
        baseline: b.errors,
        note: `body ${((sizes[0] ?? 0) / 1024).toFixed(0)} KiB JSON, sent as ${encoding ?? 'identity'} (${(p.bytesPerRequest / 1024).toFixed(0)} KiB per answer)`,
      }),
    ];
  } finally {
    await baseline.close();
  }
}
