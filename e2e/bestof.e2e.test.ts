import AxeBuilder from '@axe-core/playwright';
import { type Image, imageNameOf } from '@lakecams/contracts';
import { type CameraRow, captureTick, renderDemoImage, imagingPartsOf } from '@lakecams/svc-imaging/testing';
import { DEMO_CAMERAS } from '@lakecams/svc-webcam/testing';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '../scripts/portal.ts';
import { closePagesAfterEachTest, DESKTOP, launchChromium, openSignedIn, PHONE } from './browser.ts';
import { ARTIFACTS, startTestPortal } from './embedded-portal.ts';

const CAMERA = 'Rapperswil-Seedamm';
/** The machine is shared with other builds: waits are generous, never fixed sleeps. */
const PATIENCE = { timeout: 60_000 };
const DAY_MS = 24 * 60 * 60_000;
/** Pictures seeded two days back, enough to fill more than one row of the admin's picker. */
const SEEDED = 9;

const isoDay = (name: string) => `${name.slice(0, 4)}-${name.slice(4, 6)}-${name.slice(6, 8)}`;

describe('Bilder des Tages (Chromium)', () => {
  let portal: RunningPortal;
  let browser: Browser;
  /** The day two days back with the seeded pictures: yesterday between it and today has none. */
  let seededDay: string;
  closePagesAfterEachTest(() => browser);

  async function history(camera: string, day?: string): Promise<{ days: string[]; images: string[] }> {
    const query = new URLSearchParams({ name: camera, ...(day ? { day } : {}) });
    const response = await fetch(`${portal.url}/api/Webcam/GetImageHistory?${query}`);
    if (!response.ok) return { days: [], images: [] };
    const body = (await response.json()) as { days: string[]; images: Image[] };
    return { days: body.days, images: body.images.map((image) => image.name) };
  }

  beforeAll(async () => {
    // No schedules: the pictures are the backfill's and the test's.
    portal = await startTestPortal({ demoBackfillMinutes: 20, schedule: false });
    browser = await launchChromium();
    const deadline = Date.now() + 120_000;
    for (let count = -1, stable = 0; count < 2 || stable < 3; ) {
      if (Date.now() > deadline) throw new Error(`${CAMERA} delivered no history within 2 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 700));
      const now = (await history(CAMERA)).images.length;
      stable = now === count ? stable + 1 : 0;
      count = now;
    }

    // Older captures through svc-imaging's own pipeline, a minute apart on one day two days back.
    const imaging = imagingPartsOf(portal.services.imaging);
    const camera = await imaging.cameraDirectory.byName(CAMERA);
    if (!camera) throw new Error(`No camera ${CAMERA} in svc-imaging`);
    const demo = { ...imaging.capture.context, source: (c: CameraRow, at: Date) => renderDemoImage(c.name, at) };
    const base = new Date(Math.floor((Date.now() - 2 * DAY_MS) / 60_000) * 60_000);
    const towards = imageNameOf(base).slice(8, 10) === '00' ? 1 : -1;
    const seeded: string[] = [];
    for (let i = 0; i < SEEDED; i++) {
      const tick = new Date(base.getTime() + towards * i * 60_000);
      const outcome = await captureTick(demo, camera, tick);
      if (outcome.outcome !== 'captured') throw new Error(`Seeding ${imageNameOf(tick)}: ${outcome.outcome}`);
      seeded.push(imageNameOf(tick));
    }
    seededDay = isoDay(seeded[0] as string);
    // svc-webcam lists them once the bus has carried the captures over.
    while ((await history(CAMERA, seededDay)).images.length < SEEDED) {
      if (Date.now() > deadline + 60_000) throw new Error('The seeded pictures were not listed within 3 minutes');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });

  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  /** What axe finds serious or critical on the page. */
  async function seriousViolations(page: Page): Promise<string[]> {
    const result = await new AxeBuilder({ page }).analyze();
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  }

  const tag = (page: Page) => new URL(page.url()).searchParams.get('tag');
  const dayButton = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(name) });

  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`steps back only through days with pictures, and a day before the archive offers its first (${size})`, async () => {
      // Every day some camera has pictures on, newest first.
      const withPictures = new Set<string>();
      for (const { name } of DEMO_CAMERAS) for (const day of (await history(name)).days) withPictures.add(day);
      const days = [...withPictures].sort().reverse();
      expect(days).toContain(seededDay);

      const page = await browser.newPage({ viewport, locale: 'de-CH' });
      await page.goto(`${portal.url}/bestof?tag=${days[0]}`);
      const visited: string[] = [];
      // Step back until the button is off, where the archive begins.
      for (let step = 0; step <= days.length; step++) {
        await page.locator('a.camera-card').first().waitFor(PATIENCE);
        // The buttons wait until the days around are known.
        await page.locator('nav.best-of-nav[aria-busy="false"]').waitFor(PATIENCE);
        visited.push(tag(page) as string);
        if (step === 0) await page.screenshot({ path: join(ARTIFACTS, `bestof-${size}.png`), fullPage: true });
        const previous = dayButton(page, 'Vorheriger Tag');
        if (await previous.isDisabled()) break;
        await previous.click();
        await expect.poll(() => tag(page), PATIENCE).not.toBe(visited.at(-1));
      }
      expect(visited).toEqual(days);

      await page.goto(`${portal.url}/bestof?tag=2020-01-01`);
      await page.getByText('Für diesen Tag gibt es keine Bilder.').waitFor(PATIENCE);
      await page.getByText(/^Das Archiv beginnt am .*2\d{3}\.$/).waitFor(PATIENCE);
      await page.locator('nav.best-of-nav[aria-busy="false"]').waitFor(PATIENCE);
      const offer = page.getByRole('link', { name: /^Bilder vom .* ansehen$/ });
      expect(await offer.getAttribute('href')).toBe(`/bestof?tag=${days.at(-1)}`);
      expect(await dayButton(page, 'Vorheriger Tag').isDisabled()).toBe(true);
      await page.screenshot({ path: join(ARTIFACTS, `bestof-before-archive-${size}.png`), fullPage: true });
      // The note reads at AA contrast, like the rest of the page.
      expect(await seriousViolations(page)).toEqual([]);
      await offer.click();
      await expect.poll(() => tag(page), PATIENCE).toBe(days.at(-1));
      await page.locator('a.camera-card').first().waitFor(PATIENCE);
    }, 180_000);
  }

  it("lays the admin's picture picker out as a grid: more than two a row on a desktop, two on a phone", async () => {
    const path = `/bestof?tag=${seededDay}`;
    const admin = portal.demoAdmin as { username: string; password: string };
    const context = { viewport: DESKTOP, locale: 'de-CH' };
    const { page } = await openSignedIn(browser, portal.url, path, admin, { context, waitForUrl: PATIENCE });
    await page.getByRole('button', { name: 'Anderes Bild wählen' }).first().click();
    const list = page.getByRole('list', { name: `Bilder von ${CAMERA}` });
    await expect.poll(() => list.getByRole('listitem').count(), PATIENCE).toBe(SEEDED);
    await expect
      .poll(() => list.locator('img').evaluateAll((imgs) => imgs.every((img) => (img as HTMLImageElement).complete)))
      .toBe(true);

    /** How many thumbnails the first row holds, and whether each is wide enough to tell pictures apart. */
    const firstRow = async () => {
      const boxes = await list
        .getByRole('listitem')
        .evaluateAll((items) => items.map((item) => item.getBoundingClientRect().toJSON() as DOMRect));
      const top = boxes[0]?.top ?? 0;
      return {
        count: boxes.filter((box) => Math.abs(box.top - top) < 2).length,
        narrowest: Math.min(...boxes.map((box) => box.width)),
        inside: await list.evaluate((element) => element.scrollWidth <= element.clientWidth),
      };
    };
    const desktop = await firstRow();
    expect(desktop.count).toBeGreaterThan(2);
    expect(desktop.narrowest).toBeGreaterThanOrEqual(150);
    expect(desktop.inside).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'bestof-picker-desktop.png') });

    await page.setViewportSize(PHONE);
    await expect.poll(async () => (await firstRow()).count).toBe(2);
    const phone = await firstRow();
    expect(phone.narrowest).toBeGreaterThanOrEqual(140);
    expect(phone.inside).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'bestof-picker-phone.png') });
    expect(await seriousViolations(page)).toEqual([]);

    // Choosing one makes it the day's picture, chosen by the editors.
    await page.setViewportSize(DESKTOP);
    await list.getByRole('button').last().click();
    await page.getByText('von der Redaktion gewählt').waitFor(PATIENCE);
  }, 180_000);
});
