import type { CameraListItem } from '@lakecams/contracts';
import { DEMO_CAMERAS } from '@lakecams/svc-webcam/testing';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '../scripts/portal.ts';
import { closePagesAfterEachTest, DESKTOP, launchChromium, PHONE } from './browser.ts';
import { ARTIFACTS, startTestPortal } from './embedded-portal.ts';
import { startTileServer, type TileServer } from './tile-server.ts';

/** Core Web Vitals' "good" cumulative layout shift; every shift of the load is counted, not only its worst window. */
const MAX_SHIFT = 0.05;
const CAMERA = 'Rapperswil-Seedamm';
const PATIENCE = { timeout: 30_000 };

/** What the visitor waits for on each public page before it is complete. */
const ROUTES: { name: string; path: string; shown: string }[] = [
  { name: 'home', path: '/', shown: '.static-map__tile' },
  { name: 'webcams', path: '/webcams', shown: '.camera-card__image' },
  { name: 'webcam', path: `/webcam/${CAMERA}`, shown: '.time-controls' },
  { name: 'bestof', path: '/bestof', shown: '.camera-card__image, .best-of-empty' },
  { name: 'login', path: '/login', shown: 'form' },
  { name: 'register', path: '/register', shown: 'altcha-widget' },
  { name: 'contact', path: '/contact', shown: 'altcha-widget' },
  { name: 'referes-list', path: '/referes-list', shown: '.partner-pages__list, .partner-pages p' },
  { name: 'datenschutz', path: '/datenschutz', shown: '#main h2' },
];

const SIZES = [
  { size: 'phone', options: { viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 1.75 } },
  { size: 'desktop', options: { viewport: DESKTOP } },
] as const;

/** One layout shift as the page's observer saw it, with the elements that moved. */
interface Shift {
  value: number;
  at: number;
  sources: { node: string; from: string; to: string }[];
}

/**
 * A slow phone's order of events, made certain. The page's remote (its scripts) comes only once the
 * shell's header is painted; the answers the page waits for (news, camera list, history, tile settings, partner
 * pages, captcha, a picture's level) only once the page's heading is painted too. The shell, the session and the
 * pictures are not held.
 */
function stageOf(request: Request): 'remote' | 'content' | null {
  const { pathname } = new URL(request.url());
  // Its scripts only: the shell's chrome waits for the remote's style sheet it preloads.
  if (pathname.startsWith('/remotes/') && pathname.endsWith('.js')) return 'remote';
  if (!['fetch', 'xhr'].includes(request.resourceType())) return null;
  if (pathname === '/config.json') return 'content';
  const held =
    pathname.startsWith('/api/') && !pathname.startsWith('/api/Authenticate/') && pathname !== '/api/Events/stream';
  return held ? 'content' : null;
}

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('no public page moves after its first paint (Chromium, first visit)', () => {
  let portal: RunningPortal;
  let tiles: TileServer;
  let browser: Browser;
  closePagesAfterEachTest(() => browser);

  beforeAll(async () => {
    tiles = await startTileServer();
    portal = await startTestPortal({
      demoBackfillMinutes: 30,
      mapTiles: { url: tiles.urlTemplate, attribution: 'Testkacheln' },
    });
    browser = await launchChromium({ firstVisit: true });
    const deadline = Date.now() + 120_000;
    const ready = async () => {
      const list = (await (await fetch(`${portal.url}/api/Webcam/GetImages`)).json()) as CameraListItem[];
      if (list.length < DEMO_CAMERAS.length) return false;
      // The gateway's first view of the camera page (its camera list is kept up to 30 s).
      return (await (await fetch(`${portal.url}/webcam/${CAMERA}`)).text()).includes('id="first-view"');
    };
    while (!(await ready())) {
      if (Date.now() > deadline) throw new Error('The demo cameras delivered no pictures within 2 minutes');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await portal?.close();
    await tiles?.close();
  });

  /** Opens `path` as a first visit and answers every layout shift until the page is complete and idle. */
  async function shiftsOf(page: Page, path: string, shown: string): Promise<Shift[]> {
    await page.addInitScript(() => {
      const shifts: unknown[] = [];
      (window as unknown as { __shifts: unknown[] }).__shifts = shifts;
      const describe = (node: Node | null) => {
        if (!(node instanceof Element)) return node ? node.nodeName : '(gone)';
        const id = node.id ? `#${node.id}` : '';
        const classes = [...node.classList].map((name) => `.${name}`).join('');
        return `${node.tagName.toLowerCase()}${id}${classes}`;
      };
      const rect = (r: DOMRectReadOnly) =>
        `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`;
      type Entry = PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
      };
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Entry[]) {
          if (entry.hadRecentInput) continue;
          shifts.push({
            value: entry.value,
            at: Math.round(entry.startTime),
            sources: (entry.sources ?? []).map((source) => ({
              node: describe(source.node),
              from: rect(source.previousRect),
              to: rect(source.currentRect),
            })),
          });
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });

    const gates = { remote: gate(), content: gate() };
    await page.route(
      (url) => url.origin === portal.url,
      async (route) => {
        const stage = stageOf(route.request());
        if (stage) await gates[stage].opened;
        await route.fallback();
      },
    );
    const step = async (what: string, action: () => Promise<unknown>) => {
      try {
        await action();
      } catch (error) {
        throw new Error(`${path}: waiting for ${what} failed: ${(error as Error).message}`);
      }
    };
    /** Resolves once the browser has painted the page as it is now. */
    const paint = () =>
      page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

    await page.goto(`${portal.url}${path}`, { waitUntil: 'commit' });
    await step('the header', () => page.locator('#shell-header header').waitFor({ state: 'attached', ...PATIENCE }));
    await paint();
    gates.remote.open();
    await step('the heading', () =>
      page
        .locator('#main .remote-outlet h1')
        .first()
        .waitFor({ state: 'attached', ...PATIENCE }),
    );
    await paint();
    gates.content.open();

    // Complete: the news, the page's content and every picture in it, the network quiet.
    await step('the news', () => page.locator('.news-banner p').waitFor(PATIENCE));
    await step(shown, () =>
      page
        .locator(shown)
        .first()
        .waitFor({ state: 'attached', ...PATIENCE }),
    );
    await step('a quiet network', () => page.waitForLoadState('networkidle', PATIENCE));
    // Lazy pictures below the fold never load.
    await step('the pictures in view', () =>
      page.waitForFunction(
        () =>
          [...document.querySelectorAll('main img')].every((img) => {
            const box = img.getBoundingClientRect();
            return (img as HTMLImageElement).complete || box.top >= innerHeight || box.bottom <= 0;
          }),
        undefined,
        PATIENCE,
      ),
    );
    await paint();
    return page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts);
  }

  for (const { size, options } of SIZES) {
    for (const route of ROUTES) {
      it(`${route.path} at ${size} size shifts at most ${MAX_SHIFT}`, async () => {
        const page = await browser.newPage(options);
        const shifts = await shiftsOf(page, route.path, route.shown);
        // The cookie notice of a first visit is part of what is checked.
        expect(await page.locator('.cookie-notice').count()).toBe(1);
        await page.screenshot({ path: join(ARTIFACTS, `layout-shift-${route.name}-${size}.png`) });
        const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
        const moves = shifts
          .map(
            (shift) =>
              `@${shift.at} ms ${shift.value.toFixed(4)}: ${shift.sources.map((s) => `${s.node} ${s.from} → ${s.to}`).join('; ')}`,
          )
          .join('\n');
        expect(total, `layout shifts of ${route.path} (${size}):\n${moves}`).toBeLessThanOrEqual(MAX_SHIFT);
        await page.close();
      }, 120_000);
    }
  }
});
