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
    await expect
      .poll(() => dashboard.locator('#notice').textContent())
      .toMatch(/in dieser Minute schon aufgenommen|^$/);

    await page.screenshot({ path: join(ARTIFACTS, 'jobs-desktop.png'), fullPage: true });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: join(ARTIFACTS, 'jobs-phone.png'), fullPage: true });
    await page.close();
  });

  async function openAsAdmin(path: string, viewport: { width: number; height: number }) {
    const admin = portal.demoAdmin as { username: string; password: string };
    const page = await browser.newPage({ viewport });
    await page.goto(`${portal.url}/login?returnUrl=${encodeURIComponent(path)}`);
    const form = page.getByRole('form', { name: 'Anmelden' });
    await form.getByLabel('Benutzername').fill(admin.username);
    await form.getByLabel('Passwort', { exact: true }).fill(admin.password);
    await form.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL(`${portal.url}${path}`);
    return page;
  }

  it('fills a phone screen, each camera a card with its status and actions', async () => {
    const page = await openAsAdmin('/jobs', PHONE);
    const box = await page.locator('iframe[title="Aufnahme-Jobs"]').boundingBox();
    expect(box?.width).toBe(PHONE.width);
    expect(box?.height).toBeGreaterThan(PHONE.height * 0.75);
    const dashboard = page.frameLocator('iframe[title="Aufnahme-Jobs"]');
    const rows = dashboard.locator('#cameras tr');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(DEMO_CAMERAS.length);
    const first = rows.first();
    await expect.poll(() => first.locator('td[data-label="Status"] .status').count()).toBe(1);
    for (const name of ['Jetzt aufnehmen', 'Pausieren']) {
      const button = await first.getByRole('button', { name }).boundingBox();
      expect((button?.x ?? 0) + (button?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(PHONE.width);
    }
    // Nothing to scroll sideways inside the frame.
    const frame = page.frames().find((candidate) => candidate.url().includes('/api/Jobs/dashboard'));
    expect(await frame?.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: join(ARTIFACTS, 'jobs-phone-screen.png') });
    await page.close();
  });

  it('keeps the admin header in one row at 1280 px, the administration pages under "Verwaltung"', async () => {
    const page = await openAsAdmin('/edit/webcams', DESKTOP);
    const menu = page.getByRole('navigation', { name: 'Hauptmenü' });
    await page.screenshot({ path: join(ARTIFACTS, 'admin-header-1280-closed.png') });
    const tops = await menu
      .locator(':scope > ul > li')
      .evaluateAll((items) => items.map((item) => Math.round(item.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(1);
    const name = await page.locator('.site-header__name').boundingBox();
    expect(Math.abs((name?.y ?? 0) - (tops[0] ?? 0))).toBeLessThan(16);
    await menu.getByRole('button', { name: 'Verwaltung' }).click();
    await menu.getByRole('link', { name: 'Codes verwalten' }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'admin-header-1280.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.getByRole('link', { name: 'Codes verwalten' }).isVisible()).toBe(false);
    await page.close();
  });

  it('puts a camera row’s actions behind one "Aktionen" button on a phone', async () => {
    const page = await openAsAdmin('/edit/webcams', PHONE);
    const camera = DEMO_CAMERAS[0]?.name as string;
    const menu = page.getByRole('button', { name: `Aktionen für ${camera}` });
    await menu.click();
    for (const action of [
      'Berechtigungen',
      'Referer',
      'Konfiguration',
      'Position',
      'Bearbeiten',
      'Bild hochladen',
      'Entfernen',
    ]) {
      const button = await page.getByRole('button', { name: `${action} ${camera}` }).boundingBox();
      expect(button?.x).toBeGreaterThanOrEqual(0);
      expect((button?.x ?? 0) + (button?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(PHONE.width);
    }
    await page.screenshot({ path: join(ARTIFACTS, 'admin-webcams-actions-phone.png') });
    await page.getByRole('button', { name: `Position ${camera}` }).click();
    await page.getByRole('dialog').waitFor();
    await page.close();
  });

  it('refuses the dashboard to visitors', async () => {
    const response = await fetch(`${portal.url}/api/Jobs/dashboard`);
    expect(response.status).toBe(401);
  });
});
