import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CAMERAS } from '@lakecams/svc-webcam/testing';
import type { RunningPortal } from '../scripts/portal.ts';
import { ARTIFACTS, startTestPortal } from './embedded-portal.ts';
import { DESKTOP, closePagesAfterEachTest, launchChromium, openPage, openSignedIn, PHONE } from './browser.ts';

describe('camera health seen by visitors and administrators (Chromium)', () => {
  let portal: RunningPortal;
  let browser: Browser;
  closePagesAfterEachTest(() => browser);

  beforeAll(async () => {
    portal = await startTestPortal({ demoBackfillMinutes: 0 });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  const errors: string[] = [];
  const watch = (label: string) => ({ errors, label, ignoreFailedLoads: true });

  it('says on the camera page since when a camera is offline, without "Aktuelles Bild"', async () => {
    const camera = DEMO_CAMERAS[0]?.name as string;
    for (const [viewport, file] of [
      [DESKTOP, 'camera-offline-desktop.png'],
      [PHONE, 'camera-offline-phone.png'],
    ] as const) {
      const { page } = await openPage(browser, `${portal.url}/webcam/${camera}`, {
        context: { viewport },
        ...watch(`/webcam/${camera}`),
      });
      await page.getByText('Aktuelles Bild').waitFor({ timeout: 20_000 });
      // The browser's clock two hours on: the same page finds the camera silent since its latest picture.
      await page.clock.install({ time: Date.now() + 2 * 3600_000 });
      await page.reload();
      const note = page.getByText(/^Kamera offline seit \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} Uhr$/);
      await note.waitFor({ timeout: 20_000 });
      await page.getByRole('slider').waitFor();
      expect(await page.getByText('Aktuelles Bild').count()).toBe(0);
      await page.screenshot({ path: join(ARTIFACTS, file), fullPage: true });
      await page.close();
    }
  });

  it('shows each camera’s health as a badge on Webcams bearbeiten', async () => {
    const admin = portal.demoAdmin as { username: string; password: string };
    const { page } = await openSignedIn(browser, portal.url, '/edit/webcams', admin, watch('/edit/webcams'));
    const badges = page.locator('.health-badge');
    await expect.poll(() => badges.allTextContents(), { timeout: 20_000 }).toContain('OK');
    expect(await badges.count()).toBe(DEMO_CAMERAS.length);
    await page.screenshot({ path: join(ARTIFACTS, 'camera-health-admin-desktop.png'), fullPage: true });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: join(ARTIFACTS, 'camera-health-admin-phone.png'), fullPage: true });
  });

  it('loaded its pages without script errors', () => {
    expect(errors).toEqual([]);
  });
});
