import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '../scripts/portal.ts';
import { closePagesAfterEachTest, DESKTOP, launchChromium, PHONE } from './browser.ts';
import { ARTIFACTS, startTestPortal } from './embedded-portal.ts';

const CAMERA = 'Richterswil';

describe("a camera page's first view: its picture in the HTML, before any script", () => {
  let portal: RunningPortal;
  let browser: Browser;
  closePagesAfterEachTest(() => browser);

  beforeAll(async () => {
    portal = await startTestPortal({ demoBackfillMinutes: 10 });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  async function html(): Promise<string> {
    // The gateway's camera list is fetched at most every 30 s; the demo camera has pictures from the start.
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`no first view for ${CAMERA} within a minute`);
      const text = await (await fetch(`${portal.url}/webcam/${CAMERA}`)).text();
      if (text.includes('id="first-view"')) return text;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  it('sends the name and the current picture inside <main>, and keeps the remote hidden until it takes over', async () => {
    const page = await html();
    const main = /<main id="main"[^>]*>(.*)<\/main>/s.exec(page)?.[1] ?? '';
    expect(main).toContain(`<h1>${CAMERA}</h1>`);
    expect(main).toMatch(
      new RegExp(
        // The picture the visitor's redirect leads to, by its name: the browser skips that round trip.
        `<img src="/pictures/${CAMERA}/\\d{12}-POOR-[0-9a-f]+\\.jpg" alt="Webcam ${CAMERA}, Aufnahme vom [^"]+ Uhr" width="480" height="270" fetchpriority="high">`,
      ),
    );
    expect(page).toContain('#main:has(>#first-view)>.remote-outlet{display:none}');
    // Other pages have no first view.
    expect(await (await fetch(`${portal.url}/webcams`)).text()).not.toContain('first-view');
  });

  it('paints the picture without JavaScript', async () => {
    await html();
    const context = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${portal.url}/webcam/${CAMERA}`);
      const picture = page.locator('#first-view img');
      await expect
        .poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 60_000 })
        .toBe(480);
      await page.screenshot({ path: join(ARTIFACTS, 'first-view-without-script.png') });
    } finally {
      await context.close();
    }
  });

  /** Where the picture is on the page, in CSS pixels. */
  const boxOf = (page: Page, selector: string) =>
    page.locator(selector).evaluate((img) => {
      const { x, width, height } = img.getBoundingClientRect();
      return { x: Math.round(x), width: Math.round(width), height: Math.round(height) };
    });

  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`gives way to the camera page once it has rendered, leaving one heading and one picture in its place (${size})`, async () => {
      await html();
      const bare = await browser.newContext({ viewport, javaScriptEnabled: false });
      const withoutScript = await bare.newPage();
      await withoutScript.goto(`${portal.url}/webcam/${CAMERA}`);
      const firstView = await boxOf(withoutScript, '#first-view img');
      await bare.close();

      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      page.setDefaultTimeout(90_000);
      await page.addInitScript(() => {
        const paints: string[] = [];
        (window as unknown as { __pictures: string[] }).__pictures = paints;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { url: string })[])
            if (/\/(api\/Image\/Get|pictures)\//.test(entry.url)) paints.push(entry.url);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      });
      await page.goto(`${portal.url}/webcam/${CAMERA}`);
      await page.locator('.camera-view__image').waitFor();
      await expect.poll(() => page.locator('#first-view').count()).toBe(0);
      expect(await page.getByRole('heading', { level: 1 }).allTextContents()).toEqual([CAMERA]);
      expect(await page.locator('main img[src*="/api/Image/Get/camera/"]').count()).toBe(1);
      // The page's picture takes the first view's place and size ...
      expect(await boxOf(page, '.camera-view__image')).toEqual(firstView);
      await expect
        .poll(() => page.locator('.camera-view__image').evaluate((img: HTMLImageElement) => img.complete))
        .toBe(true);
      // ... so the picture is the largest paint once, at the first view, not again when the page repaints it.
      const paints = await page.evaluate(() => (window as unknown as { __pictures: string[] }).__pictures);
      expect(paints).toHaveLength(1);
      await page.screenshot({ path: join(ARTIFACTS, `first-view-${size}.png`) });
      await context.close();
    });
  }

  it('goes when the visitor leaves the page before it rendered', async () => {
    await html();
    const page = await browser.newPage({ viewport: DESKTOP });
    page.setDefaultTimeout(90_000);
    // The camera's pictures never arrive: the page stays loading, then the visitor goes to the list.
    await page.route('**/api/Webcam/GetImageHistory**', () => new Promise(() => {}));
    await page.goto(`${portal.url}/webcam/${CAMERA}`);
    await page.locator('#first-view img').waitFor();
    await page.evaluate(() => {
      window.history.pushState(null, '', '/webcams');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect.poll(() => page.locator('#first-view').count()).toBe(0);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });
});
