import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '../scripts/portal.ts';
import { closePagesAfterEachTest, DESKTOP, launchChromium, openSignedIn, PHONE } from './browser.ts';
import { ARTIFACTS, startTestPortal } from './embedded-portal.ts';

const CAMERA = 'Rapperswil-Seedamm';

describe("a camera's day as a time-lapse video in Chromium", () => {
  let portal: RunningPortal;
  let browser: Browser;
  closePagesAfterEachTest(() => browser);

  beforeAll(async () => {
    portal = await startTestPortal({ demoBackfillMinutes: 30 });
    browser = await launchChromium();
    // The demo camera has a few pictures of today (expect.poll works only inside tests).
    const deadline = Date.now() + 120_000;
    const pictures = async () => {
      const response = await fetch(`${portal.url}/api/Webcam/GetImageHistory?name=${CAMERA}`);
      return response.ok ? ((await response.json()) as { images: unknown[] }).images.length : 0;
    };
    // Its history is complete once the count holds: the backfill no longer competes with the pages.
    for (let count = -1, stable = 0; count < 3 || stable < 3; ) {
      if (Date.now() > deadline) throw new Error(`${CAMERA} delivered no history within 2 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 700));
      const now = await pictures();
      stable = now === count ? stable + 1 : 0;
      count = now;
    }
  });

  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`plays the clip on the camera page, with its download and share link (${size})`, async () => {
      const page = await browser.newPage({ viewport });
      // The machine is shared: a page may take long while others' tests run.
      page.setDefaultTimeout(90_000);
      const clips: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/Image/Timelapse/')) clips.push(request.url());
      });
      await page.goto(`${portal.url}/webcam/${CAMERA}`);
      const section = page.getByRole('region', { name: 'Zeitraffer als Video' });
      await section.waitFor();
      // Nothing of the clip loads before the visitor asks for it.
      expect(clips).toEqual([]);
      const download = section.getByRole('link', { name: 'Herunterladen (MP4)' });
      expect(await download.getAttribute('href')).toMatch(
        new RegExp(`^/api/Image/Timelapse/camera/${CAMERA}/\\d{4}-\\d{2}-\\d{2}\\.mp4$`),
      );
      await section.getByRole('button', { name: /Video abspielen/ }).click();
      const video = section.locator('video');
      await page.waitForFunction(
        (element) => element !== null && (element as HTMLVideoElement).readyState >= 1,
        await video.elementHandle(),
        { timeout: 90_000 },
      );
      const played = await video.evaluate((element: HTMLVideoElement) => ({
        duration: element.duration,
        width: element.videoWidth,
        error: element.error?.code ?? null,
      }));
      expect(played.error).toBeNull();
      expect(played.duration).toBeGreaterThan(0);
      // An anonymous visitor: POOR, 480 px wide.
      expect(played.width).toBe(480);
      await video.evaluate((element: HTMLVideoElement) => element.pause());
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `timelapse-camera-page-${size}.png`), fullPage: true });
    }, 180_000);
  }

  it('lists the clip made on /jobs, with its progress, for an administrator', { timeout: 180_000 }, async () => {
    const admin = portal.demoAdmin as { username: string; password: string };
    const { page } = await openSignedIn(browser, portal.url, '/jobs', admin, {
      beforeLoad: async (opened) => opened.setDefaultTimeout(90_000),
    });
    const dashboard = page.frameLocator('iframe[title="Aufnahme-Jobs"]');
    const clip = dashboard.getByRole('region', { name: 'Zeitraffer' }).locator('tbody tr', { hasText: CAMERA });
    await expect
      .poll(() => clip.first().textContent(), { timeout: 20_000 })
      .toMatch(/POOR\s*OK\s*100 % von \d+ Bildern/);
    await dashboard.getByRole('heading', { name: 'Zeitraffer' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'timelapse-jobs-desktop.png') });
  });

  it('leaves the clip out of the home page', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    const clips: string[] = [];
    page.on('request', (request) => {
      if (/Timelapse|day-timelapse/i.test(request.url())) clips.push(request.url());
    });
    await page.goto(portal.url);
    await page.waitForLoadState('networkidle');
    expect(clips).toEqual([]);
  });
});
