import { imageNameOf } from '@lakecams/contracts';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { fetchOk, log, ROOT, type ResultRow, row, sleep, verdict, type WrkResult, wrkInTurns } from './harness.ts';
import type { Nginx } from './nginx.ts';
import { adminClient, type BenchPortal, resolvePicture } from './portals.ts';

const PARTNER_PAGE = 'https://partner.example/seewetter';
const CAMERA = 'Rapperswil-Seedamm';
const PATH = `/api/Image/Get/camera/${CAMERA}.jpg`;

/** Does svc-referer have the layer upload route yet? */
export function layersAvailable(): boolean {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
    );
  const source = join(ROOT, 'svc-referer', 'src');
  return existsSync(source) && files(source).some((file) => readFileSync(file, 'utf8').includes('SetLayer'));
}

const isoDay = (date: Date) => {
  const name = imageNameOf(date);
  return `${name.slice(0, 4)}-${name.slice(4, 6)}-${name.slice(6, 8)}`;
};

/** A referer page with a booking of the camera at HIGH, a base layer (logo bar) and one advertisement. */
async function bookPartnerPage(portal: BenchPortal): Promise<void> {
  const admin = await adminClient(portal);
  const users = await admin.put('/api/Referer/Set', { url: PARTNER_PAGE, userEmail: admin.user.email });
  const refererUsers = (users.status === 200 ? users.json : (await admin.get('/api/Referer/GetRefererUsers')).json) as {
    id: number;
    url: string;
  }[];
  const refererUser = refererUsers.find((u) => u.url === PARTNER_PAGE);
  if (!refererUser) throw new Error(`referer user not created: ${users.status} ${users.text}`);
  const [webcam] = (await admin.get(`/api/Webcam/GetCameras?name=${CAMERA}`)).json as { id: number }[];
  if (!webcam) throw new Error(`no camera ${CAMERA}`);
  const booking = await admin.put(`/api/Webcam/SetReferer/referer?webcamId=${webcam.id}`, {
    start: isoDay(new Date()),
    end: isoDay(new Date(Date.now() + 30 * 86_400_000)),
    quality: 'HIGH',
    refererUserId: refererUser.id,
  });
  if (booking.status !== 200) throw new Error(`booking answered ${booking.status}: ${booking.text}`);
  const layer = async (level: string, png: Buffer) => {
    const form = new FormData();
    form.set('url', PARTNER_PAGE);
    form.set('level', level);
    form.set('cameraId', String(webcam.id));
    form.set('enabled', 'true');
    form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), `${level}.png`);
    const response = await fetch(`${portal.url}/api/Referer/SetLayer/layer`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${admin.user.jwtToken}`,
        // The anti-forgery session and token cookies the client keeps, the token echoed.
        cookie: [...admin.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        'x-xsrf-token': admin.cookies.get('XSRF-TOKEN') ?? '',
      },
      body: form,
    });
    if (!response.ok) throw new Error(`SetLayer ${level} answered ${response.status}: ${await response.text()}`);
  };
  const banner = (width: number, height: number, colour: string) =>
    sharp({ create: { width, height, channels: 4, background: colour } })
      .png()
      .toBuffer();
  await layer('BASE', await banner(1920, 120, '#0b5c8ccc'));
  await layer('TIME', await banner(600, 200, '#f4b400dd'));
}

/** What a browser on the partner page sends with the page's <img>. */
export const PARTNER_HEADERS = { referer: `${PARTNER_PAGE}/index.html` };
/** The entitlement URL the partner page embeds. */
export const PARTNER_PICTURE_PATH = PATH;

const booked = new WeakMap<BenchPortal, Promise<void>>();

/** The partner page booked with its two layers, once per portal, and delivered with them. */
export function ensurePartnerPage(portal: BenchPortal): Promise<void> {
  let done = booked.get(portal);
  if (!done) {
    done = (async () => {
      await bookPartnerPage(portal);
      const layersOf = async () => {
        const answer = await fetch(`${portal.url}${PATH}`, { headers: PARTNER_HEADERS, redirect: 'manual' });
        await answer.arrayBuffer();
        return answer.headers.get('x-image-layers');
      };
      // The booking and layers reach svc-imaging as events: wait until the redirect names a layered picture.
      for (let i = 0; i < 60 && !(await layersOf()); i++) await sleep(500);
      if (!(await layersOf())) throw new Error('the booked page gets no layers after 30 s');
    })();
    booked.set(portal, done);
  }
  return done;
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
}

/**
 * The referer-booking path: a partner page's `Referer`, a booking and layers drawn into the picture. The
 * entitlement URL decides the page's level and layers and redirects to a signed name of the page's picture;
 * that picture is composed once and served from the composed-picture cache after. Both measured apart,
 * against nginx answering the same redirect and serving the composed bytes.
 */
export async function measureRefererPath(portal: BenchPortal, nginx: Nginx): Promise<ResultRow[]> {
  const common = { benchmark: 'image delivery', baselineLabel: 'nginx' };
  if (!layersAvailable()) {
    return [
      row({
        ...common,
        case: 'referer booking with layers',
        metric: 'requests/s',
        unit: 'req/s',
        portal: null,
        baseline: null,
        verdict: 'not measured',
        note: 'not measured (layers not available)',
      }),
    ];
  }
  await ensurePartnerPage(portal);
  const headers = PARTNER_HEADERS;
  const { ms: redirectMs, result: resolved } = await timed(() => resolvePicture(portal.url, PATH, headers));
  const { location } = resolved;
  // The first request for the name composed the layers; the next ones come from the cache.
  const first = { ms: redirectMs, response: resolved.picture };
  await fetchOk(`${portal.url}${location}`).then((answer) => answer.arrayBuffer());
  const second = await timed(async () => {
    const response = await fetchOk(`${portal.url}${location}`);
    return { response, bytes: Buffer.from(await response.arrayBuffer()) };
  });
  const cache = [first.response, second.result.response]
    .map((answer) => answer.headers.get('x-layer-cache') ?? 'no header')
    .join(' → ');
  log(
    `referer path: ${resolved.quality}, layers ${resolved.picture.headers.get('x-image-layers')}, ${location}; first ${first.ms.toFixed(0)} ms, then ${second.ms.toFixed(1)} ms (${cache})`,
  );
  await nginx.put(location.split('?')[0] as string, second.result.bytes);
  await nginx.redirect(`/referer${PATH}`, location);
  const kase = 'embedded, Referer + booking + 2 layers, 50 conn.';
  const rows: ResultRow[] = [
    row({
      ...common,
      case: kase,
      metric: 'first request (redirect + compose)',
      unit: 'ms',
      portal: first.ms,
      baseline: second.ms,
      baselineLabel: 'third request of the picture',
      note: `x-layer-cache: ${cache}`,
      verdict: verdict(second.result.response.headers.get('x-layer-cache') === 'hit'),
      target: 'cached after the first',
    }),
  ];
  // The signed name is the same for every visitor of the page for 10 minutes: a CDN keeps it that long.
  for (const [what, portalPath, nginxPath, portalHeaders] of [
    ['picture by its signed name', location, location, {}],
    ['redirect with the Referer', PATH, `/referer${PATH}`, headers],
  ] as const) {
    const results = await wrkInTurns(
      [
        { label: 'nginx', url: `${nginx.url}${nginxPath}` },
        { label: 'portal', url: `${portal.url}${portalPath}`, headers: portalHeaders },
      ],
      { connections: 50 },
    );
    const [p, b] = [results.portal, results.nginx] as [WrkResult, WrkResult];
    const measured = `${kase.replace(', 50 conn.', '')}, ${what}, 50 conn.`;
    rows.push(
      row({
        ...common,
        case: measured,
        metric: 'requests/s',
        unit: 'req/s',
        portal: p.requestsPerSecond,
        baseline: b.requestsPerSecond,
      }),
      row({ ...common, case: measured, metric: 'p99 latency', unit: 'ms', portal: p.p99, baseline: b.p99 }),
      row({
        ...common,
        case: measured,
        metric: 'errors',
        unit: 'count',
        portal: p.errors,
        baseline: b.errors,
        note: `body ${(p.bytesPerRequest / 1024).toFixed(1)} KiB${p.errorKinds ? `; ${p.errorKinds}` : ''}`,
      }),
    );
  }
  return rows;
}
