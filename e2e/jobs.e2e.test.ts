import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CAMERAS } from '../svc-webcam/src/demo-cameras.ts';
import type { RunningPortal } from '../scripts/portal.ts';
import { ARTIFACTS, startTestPortal } from './embedded-portal.ts';
import { DESKTOP, closePagesAfterEachTest, launchChromium, PHONE } from './browser.ts';

describe('the job dashboard for an administrator (Chromium)', () => {
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

  it('shows every camera’s schedule and runs in a frame, captures on demand and pauses', async () => {
    const admin = portal.demoAdmin as { username: string; password: string };
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(`${portal.url}/login?returnUrl=%2Fjobs`);
    await page.getByLabel('Benutzername').fill(admin.username);
    await page.getByLabel('Passwort', { exact: true }).fill(admin.password);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL(`${portal.url}/jobs`);

    const dashboard = page.frameLocator('iframe[title="Aufnahme-Jobs"]');
    const rows = dashboard.locator('#cameras tr');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(DEMO_CAMERAS.length);
    await expect.poll(() => dashboard.locator('.status-done').count(), { timeout: 20_000 }).toBe(DEMO_CAMERAS.length);

    const richterswil = dashboard.locator('tr', { hasText: 'Richterswil' });
    await richterswil.getByRole('button', { name: 'Pausieren' }).click();
    await expect.poll(() => richterswil.locator('.status').textContent()).toBe('Pausiert');
    await richterswil.getByRole('button', { name: 'Fortsetzen' }).click();
    await expect.poll(() => richterswil.getByRole('button', { name: 'Pausieren' }).count()).toBe(1);
    // The demo cameras were captured this minute already: a second capture is refused with a message.
    await richterswil.getByRole('button', { name: 'Jetzt aufnehmen' }).click();
    await expect.poll(() => dashboard.locator('#notice').textContent()).toMatch(/captured this minute|^$/);

    await page.screenshot({ path: join(ARTIFACTS, 'jobs-desktop.png'), fullPage: true });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: join(ARTIFACTS, 'jobs-phone.png'), fullPage: true });
    await page.close();
  });

  it('refuses the dashboard to visitors', async () => {
    const response = await fetch(`${portal.url}/api/Jobs/dashboard`);
    expect(response.status).toBe(401);
  });
});
