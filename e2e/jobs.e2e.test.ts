import { join } from 'node:path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveCaptcha } from '@lakecams/svc-identity/testing';
import { DEMO_CAMERAS } from '@lakecams/svc-webcam/testing';
import type { RunningPortal } from '../scripts/portal.ts';
import { ARTIFACTS, startTestPortal } from './embedded-portal.ts';
import { DESKTOP, closePagesAfterEachTest, launchChromium, openSignedIn, PHONE } from './browser.ts';
import { linkIn, waitForMail } from './mail-outbox.ts';
import { antiForgeryOf } from './portal-api.ts';

const FRAME = 'iframe[title="Aufnahme-Jobs"]';
/** The dashboard's cameras' table, one row per camera (in the frame, or its page opened on its own). */
const cameraRows = (dashboard: FrameLocator | Page) =>
  dashboard.getByRole('table', { name: /jeder Kamera/ }).locator('tbody tr');

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

  /** What the pages signed in below reported (4xx answers the tests provoke aside). */
  const errors: string[] = [];

  it('shows every camera’s schedule and runs in a frame, captures on demand and pauses', async () => {
    const page = await openAsAdmin('/jobs', DESKTOP);

    const dashboard = page.frameLocator(FRAME);
    const rows = cameraRows(dashboard);
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(DEMO_CAMERAS.length);
    await expect
      .poll(() => dashboard.locator('.job-status--done').count(), { timeout: 20_000 })
      .toBe(DEMO_CAMERAS.length);

    const richterswil = rows.filter({ hasText: 'Richterswil' });
    await richterswil.getByRole('button', { name: /^Pausieren / }).click();
    await expect.poll(() => richterswil.locator('.job-status').textContent()).toBe('Pausiert');
    await richterswil.getByRole('button', { name: /^Fortsetzen / }).click();
    await expect.poll(() => richterswil.getByRole('button', { name: /^Pausieren / }).count()).toBe(1);
    // Captured this minute already (refused) or captured now: either way said in that camera's row.
    await richterswil.getByRole('button', { name: /^Jetzt aufnehmen / }).click();
    await expect
      .poll(() => richterswil.getByRole('status').textContent())
      .toMatch(/in dieser Minute schon aufgenommen|Neues Bild von Richterswil aufgenommen/);

    await page.screenshot({ path: join(ARTIFACTS, 'jobs-desktop.png'), fullPage: true });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: join(ARTIFACTS, 'jobs-phone.png'), fullPage: true });
    await page.close();
  });

  async function openAs(
    credentials: { username: string; password: string },
    path: string,
    viewport: { width: number; height: number },
  ): Promise<Page> {
    const watch = { context: { viewport }, errors, label: path, ignoreFailedLoads: true };
    return (await openSignedIn(browser, portal.url, path, credentials, watch)).page;
  }

  const openAsAdmin = (path: string, viewport: { width: number; height: number }) =>
    openAs(portal.demoAdmin as { username: string; password: string }, path, viewport);

  /** A confirmed user without any role, registered as a visitor does (captcha, mail). */
  async function registerPlainUser(): Promise<{ username: string; password: string }> {
    const username = `jobs${Date.now().toString(36)}`;
    const email = `${username}@example.ch`;
    const password = 'Seecam2026!';
    const antiForgery = await antiForgeryOf(portal.url);
    const captcha = await solveCaptcha(portal.url, 'register');
    const registered = await fetch(`${portal.url}/api/Register/Register?captcha=${captcha}`, {
      method: 'POST',
      headers: { ...antiForgery, 'content-type': 'application/json' },
      body: JSON.stringify({
        firstname: 'Erika',
        lastname: 'Muster',
        email,
        username,
        password,
        passwordConfirm: password,
        phoneNumber: '044 123 45 67',
      }),
    });
    expect(registered.status, await registered.text()).toBe(200);
    const link = linkIn(await waitForMail(portal.outboxDir, email, 'Registrierung'), '/confirmRegistration');
    const query = new URLSearchParams({ userEmail: email, token: link.searchParams.get('token') ?? '' });
    const confirmed = await fetch(`${portal.url}/api/RegisterConfirm/Confirm?${query}`, {
      method: 'PUT',
      headers: antiForgery,
    });
    expect(confirmed.status, await confirmed.text()).toBe(200);
    return { username, password };
  }

  it('shows the dashboard, a page of mf-admin, in the frame to an administrator, and to no other user', async () => {
    const admin = await openAsAdmin('/jobs', DESKTOP);
    const dashboard = admin.frameLocator(FRAME);
    await dashboard.getByRole('heading', { level: 1, name: 'Aufnahme-Jobs' }).waitFor();
    await expect.poll(() => cameraRows(dashboard).count(), { timeout: 20_000 }).toBe(DEMO_CAMERAS.length);
    for (const section of ['Kameras', 'Letzte Fehler', 'Zeitraffer', 'Aufräumen'])
      await dashboard.getByRole('heading', { level: 2, name: section }).waitFor();
    // The frame holds that page alone: none of the portal's header around it.
    expect(await dashboard.getByRole('navigation').count()).toBe(0);
    await admin.screenshot({ path: join(ARTIFACTS, 'jobs-frame-desktop.png') });
    // The frame's page on its own, whole, as wide as a desktop frame and a phone.
    await admin.goto(`${portal.url}/api/Jobs/dashboard`);
    await expect.poll(() => cameraRows(admin).count()).toBe(DEMO_CAMERAS.length);
    await admin.screenshot({ path: join(ARTIFACTS, 'jobs-dashboard-desktop.png'), fullPage: true });
    await admin.setViewportSize(PHONE);
    await admin.screenshot({ path: join(ARTIFACTS, 'jobs-dashboard-phone.png'), fullPage: true });
    await admin.close();

    const user = await openAs(await registerPlainUser(), '/jobs', DESKTOP);
    await user.getByText('Diese Seite ist Administratoren vorbehalten.').waitFor();
    expect(await user.locator(FRAME).count()).toBe(0);
    await user.screenshot({ path: join(ARTIFACTS, 'jobs-not-admin-desktop.png') });
    // Asked for directly with the user's access cookie, the server refuses the frame's page and its data.
    const frame = await user.goto(`${portal.url}/api/Jobs/dashboard`);
    expect(frame?.status()).toBe(403);
    expect(await frame?.text()).not.toContain('job-dashboard');
    expect(await user.evaluate(() => fetch('/api/Jobs/state').then((answer) => answer.status))).toBe(403);
    await user.close();
  }, 180_000);

  it('says what "Jetzt aufnehmen" came to beside the button clicked, in its row or card, not at the top', async () => {
    for (const [viewport, size] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const page = await openAsAdmin('/jobs', viewport);
      const dashboard = page.frameLocator(FRAME);
      const rows = cameraRows(dashboard);
      await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(DEMO_CAMERAS.length);
      // The last row: farthest from the top of the dashboard.
      const name = ((await rows.last().locator('td').first().textContent()) ?? '').trim();
      const row = rows.filter({ hasText: name });
      const button = row.getByRole('button', { name: `Jetzt aufnehmen ${name}` });
      await button.click();
      const result = row.getByRole('status');
      await expect
        .poll(() => result.textContent())
        .toMatch(new RegExp(`in dieser Minute schon aufgenommen|Neues Bild von ${name} aufgenommen`));
      expect(await dashboard.getByRole('alert').count()).toBe(0);
      expect(await dashboard.getByText(/schon aufgenommen|Neues Bild von/).count()).toBe(1);
      // Right under the row's buttons (side by side or stacked), inside the row's (or card's) box.
      const [at, buttons, shown, inRow] = await Promise.all([
        button.boundingBox(),
        row.locator('.row-actions').boundingBox(),
        result.boundingBox(),
        row.boundingBox(),
      ]);
      if (!at || !buttons || !shown || !inRow) throw new Error('button, result or row not shown');
      expect(shown.y).toBeGreaterThanOrEqual(buttons.y + buttons.height - 1);
      expect(shown.y - (buttons.y + buttons.height)).toBeLessThan(24);
      expect(shown.y - (at.y + at.height)).toBeLessThan(80);
      expect(shown.y + shown.height).toBeLessThanOrEqual(inRow.y + inRow.height + 1);
      expect(shown.x).toBeGreaterThanOrEqual(inRow.x);
      expect(shown.x + shown.width).toBeLessThanOrEqual(inRow.x + inRow.width + 1);
      await result.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `jobs-capture-result-${size}.png`) });
      await page.close();
    }
  });

  it('fills a phone screen, each camera a card with its status and actions', async () => {
    const page = await openAsAdmin('/jobs', PHONE);
    const box = await page.locator(FRAME).boundingBox();
    expect(box?.width).toBe(PHONE.width);
    expect(box?.height).toBeGreaterThan(PHONE.height * 0.75);
    const dashboard = page.frameLocator(FRAME);
    const rows = cameraRows(dashboard);
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(DEMO_CAMERAS.length);
    const first = rows.first();
    await expect.poll(() => first.locator('td[data-label="Status"] .job-status').count()).toBe(1);
    for (const name of [/^Jetzt aufnehmen /, /^Pausieren /]) {
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

  it('refuses the dashboard and its data to visitors', async () => {
    for (const path of ['/api/Jobs/dashboard', '/api/Jobs/state', '/api/Jobs/timelapses']) {
      const response = await fetch(`${portal.url}${path}`);
      expect(response.status, path).toBe(401);
    }
  });

  it('loaded its pages without script errors', () => {
    expect(errors).toEqual([]);
  });
});
