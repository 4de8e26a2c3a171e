import type { BrowserContext } from 'playwright-core';
import { DESKTOP, launchChromium } from '../e2e/browser.ts';
import type { BenchContext } from './context.ts';
import type { Nginx } from './nginx.ts';
import { fetchOk, log, median, REPEATS, type ResultRow, row, sleep, verdict } from './harness.ts';
import { IMAGE_CAMERA, IMAGE_PATH } from './image-delivery.ts';

const PAGES = [
  { name: 'home', path: '/' },
  { name: 'webcams', path: '/webcams' },
  { name: 'camera page', path: `/webcam/${IMAGE_CAMERA}` },
];
const JS_BUDGET_KIB = 180;
const LCP_BUDGET_MS = 1000;
export const BASELINE_PAGE = '/bench-baseline.html';

interface Visit {
  /** Encoded body bytes of JavaScript responses as received (headers not counted), by who ships them. */
  jsBytes: Map<string, number>;
  lcpMs: number;
  lcpElement: string;
  /** When a camera picture was first painted as the largest element (0: never). */
  pictureMs: number;
  encodings: Set<string>;
  /** A remote showed its failure notice instead of its page. */
  remoteFailed: boolean;
}

/** `/remotes/mf-map/…` → mf-map; everything else of the page's origin is the shell's. */
function ownerOf(url: string): string {
  const path = new URL(url).pathname;
  return /^\/remotes\/([^/]+)\//.exec(path)?.[1] ?? 'shell';
}

const LCP_OBSERVER = () => {
  const state = window as unknown as { __lcp: number; __lcpElement: string; __picture: number };
  state.__lcp = 0;
  state.__lcpElement = '';
  state.__picture = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { element?: Element | null; url?: string })[]) {
      state.__lcp = entry.startTime;
      state.__lcpElement = entry.element?.tagName.toLowerCase() ?? '';
      // The same picture painted again by the page's remote is a new LCP entry; the visitor saw it at the first.
      if (!state.__picture && /\/(api\/Image\/Get|pictures)\//.test(entry.url ?? '')) state.__picture = entry.startTime;
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
};

/** One visit in a browser context: cold when the context is new, warm when it has visited before. */
async function visit(context: BrowserContext, url: string): Promise<Visit> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  // The budgets are in gzip bytes: ask for gzip as older browsers and most proxies do (Chromium prefers br).
  await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'gzip, deflate' } });
  const requests = new Map<string, { url: string; script: boolean; headerBytes: number }>();
  const jsBytes = new Map<string, number>();
  const encodings = new Set<string>();
  let lastScript = Date.now();
  cdp.on('Network.requestWillBeSent', (event) => {
    const script = event.type === 'Script' || /\.m?js(\?|$)/.test(event.request.url);
    requests.set(event.requestId, { url: event.request.url, script, headerBytes: 0 });
    if (script) lastScript = Date.now();
  });
  cdp.on('Network.responseReceived', (event) => {
    const request = requests.get(event.requestId);
    const encoding = Object.entries(event.response.headers).find(([name]) => name.toLowerCase() === 'content-encoding');
    if (request?.script && encoding) encodings.add(String(encoding[1]));
    // What has arrived when the response starts is its headers; the rest is the (encoded) body.
    if (request) request.headerBytes = event.response.encodedDataLength;
  });
  cdp.on('Network.loadingFinished', (event) => {
    const request = requests.get(event.requestId);
    if (!request?.script || !request.url.startsWith(new URL(url).origin)) return;
    const owner = ownerOf(request.url);
    const body = Math.max(0, event.encodedDataLength - request.headerBytes);
    jsBytes.set(owner, (jsBytes.get(owner) ?? 0) + body);
    lastScript = Date.now();
  });
  await page.goto(url, { waitUntil: 'load' });
  // Remotes load after the load event: wait until no script arrived for a second (at most 10 s).
  const deadline = Date.now() + 10_000;
  while (Date.now() - lastScript < 1000 && Date.now() < deadline) await sleep(100);
  await sleep(500);
  const lcp = (await page.evaluate(() => {
    const state = window as unknown as { __lcp: number; __lcpElement: string; __picture: number };
    return { ms: state.__lcp, element: state.__lcpElement, picture: state.__picture };
  })) as { ms: number; element: string; picture: number };
  const remoteFailed = (await page.locator('.remote-failure').count()) > 0;
  await cdp.detach();
  await page.close();
  return { jsBytes, lcpMs: lcp.ms, lcpElement: lcp.element, pictureMs: lcp.picture, encodings, remoteFailed };
}

const sum = (bytes: Map<string, number>) => [...bytes.values()].reduce((a, b) => a + b, 0);

/**
 * Chromium against the gateway on loopback: JavaScript bytes fetched (gzip) and largest contentful paint for
 * home, webcams and a camera page, cold and warm cache, beside a plain HTML page with the same picture on nginx.
 */
/** The baseline of the page benchmarks on nginx: a plain HTML page holding only the camera's current picture. */
export async function putBaselinePage(portal: { url: string }, nginx: Nginx): Promise<string> {
  await nginx.put(IMAGE_PATH, Buffer.from(await (await fetchOk(`${portal.url}${IMAGE_PATH}`)).arrayBuffer()));
  await nginx.put(
    BASELINE_PAGE,
    `<!doctype html><html lang="de-CH"><head><meta charset="utf-8"><title>${IMAGE_CAMERA}</title></head>` +
      `<body><h1>${IMAGE_CAMERA}</h1><img src="${IMAGE_PATH}" width="1024" height="576" alt="${IMAGE_CAMERA}"></body></html>`,
  );
  return `${nginx.url}${BASELINE_PAGE}`;
}

export async function frontEnd(context: BenchContext): Promise<ResultRow[]> {
  const portal = await context.embedded();
  const nginx = await context.nginx();
  await putBaselinePage(portal, nginx);
  const browser = await launchChromium({ firstVisit: true });
  const rows: ResultRow[] = [];
  try {
    const measure = async (url: string) => {
      const cold: Visit[] = [];
      const warm: Visit[] = [];
      for (let i = 0; i < REPEATS; i++) {
        const browserContext = await browser.newContext({ viewport: DESKTOP });
        await browserContext.addInitScript(LCP_OBSERVER);
        cold.push(await visit(browserContext, url));
        warm.push(await visit(browserContext, url));
        await browserContext.close();
      }
      return { cold, warm };
    };
    const baseline = await measure(`${nginx.url}${BASELINE_PAGE}`);
    const baselineLcp = {
      cold: median(baseline.cold.map((v) => v.lcpMs)),
      warm: median(baseline.warm.map((v) => v.lcpMs)),
    };
    for (const page of PAGES) {
      const { cold, warm } = await measure(`${portal.url}${page.path}`);
      const kib = (visits: Visit[], owner?: string) =>
        median(visits.map((v) => (owner ? (v.jsBytes.get(owner) ?? 0) : sum(v.jsBytes)))) / 1024;
      const lcp = { cold: median(cold.map((v) => v.lcpMs)), warm: median(warm.map((v) => v.lcpMs)) };
      const encodings = [...new Set(cold.flatMap((v) => [...v.encodings]))].join(', ') || 'none';
      const broken = (v: Visit) => v.remoteFailed || v.lcpMs === 0;
      if (cold.some((v) => broken(v) || sum(v.jsBytes) === 0) || warm.some(broken)) {
        rows.push(
          row({
            benchmark: 'front end',
            case: page.name,
            metric: 'JS fetched (gzip), LCP',
            unit: '',
            portal: null,
            baseline: null,
            baselineLabel: '',
            verdict: 'not measured',
            note: 'the page did not render (a remote failed to load or no paint)',
          }),
        );
        continue;
      }
      log(
        `${page.name}: JS ${kib(cold).toFixed(0)} KiB cold (${encodings}), ${kib(warm).toFixed(1)} KiB warm; LCP ${lcp.cold.toFixed(0)} ms cold (${cold[0]?.lcpElement}), ${lcp.warm.toFixed(0)} ms warm`,
      );
      const common = { benchmark: 'front end', baselineLabel: 'plain HTML page' };
      const isHome = page.name === 'home';
      rows.push(
        row({
          ...common,
          case: `${page.name}, cold`,
          metric: 'JS fetched (gzip)',
          unit: 'KiB',
          portal: kib(cold),
          baseline: 0,
          ...(isHome ? { target: `≤ ${JS_BUDGET_KIB} KiB`, verdict: verdict(kib(cold) <= JS_BUDGET_KIB) } : {}),
          note: `content-encoding: ${encodings}`,
        }),
      );
      const owners = [...new Set(cold.flatMap((v) => [...v.jsBytes.keys()]))].sort();
      for (const owner of owners) {
        rows.push(
          row({
            ...common,
            case: `${page.name}, cold`,
            metric: `  JS of ${owner}`,
            unit: 'KiB',
            portal: kib(cold, owner),
            baseline: null,
          }),
        );
      }
      rows.push(
        row({
          ...common,
          case: `${page.name}, warm`,
          metric: 'JS fetched (gzip)',
          unit: 'KiB',
          portal: kib(warm),
          baseline: 0,
        }),
        row({
          ...common,
          case: `${page.name}, cold`,
          metric: 'LCP',
          unit: 'ms',
          portal: lcp.cold,
          baseline: baselineLcp.cold,
          target: `≤ ${LCP_BUDGET_MS} ms`,
          verdict: verdict(lcp.cold > 0 && lcp.cold <= LCP_BUDGET_MS),
          note: `largest element: ${cold[0]?.lcpElement || '?'}`,
        }),
        row({
          ...common,
          case: `${page.name}, warm`,
          metric: 'LCP',
          unit: 'ms',
          portal: lcp.warm,
          baseline: baselineLcp.warm,
        }),
      );
      const picture = median(cold.map((v) => v.pictureMs).filter((ms) => ms > 0));
      if (picture > 0)
        rows.push(
          row({
            ...common,
            case: `${page.name}, cold`,
            metric: 'picture first painted',
            unit: 'ms',
            portal: picture,
            baseline: baselineLcp.cold,
            target: '≤ 2× baseline',
            verdict: verdict(picture <= 2 * baselineLcp.cold),
            note: 'first LCP entry of a camera picture (a later repaint of it counts as LCP)',
          }),
        );
    }
  } finally {
    await browser.close();
  }
  return rows;
}
