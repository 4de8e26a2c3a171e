import AxeBuilder from '@axe-core/playwright';
import { type Image, imageNameOf } from '@lakecams/contracts';
import { type CameraRow, captureTick, renderDemoImage, imagingPartsOf } from '@lakecams/svc-imaging/testing';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '../scripts/portal.ts';
import { closePagesAfterEachTest, DESKTOP, launchChromium, PHONE, mainHeading } from './browser.ts';
import { ARTIFACTS, startTestPortal } from './embedded-portal.ts';

const CAMERA = 'Rapperswil-Seedamm';
/** The machine is shared with other builds: waits are generous, never fixed sleeps. */
const PATIENCE = { timeout: 60_000 };
const DAY_MS = 24 * 60 * 60_000;

const isoDay = (name: string) => `${name.slice(0, 4)}-${name.slice(4, 6)}-${name.slice(6, 8)}`;

describe('comparing two moments of a camera (Chromium)', () => {
  let portal: RunningPortal;
  let browser: Browser;
  /** Picture A: the camera's current picture when the test began. */
  let current: string;
  /** Yesterday's picture nearest to A's time of day, and another one further off. */
  let yesterday: string;
  let yesterdayFarther: string;
  closePagesAfterEachTest(() => browser);

  async function history(day?: string): Promise<string[]> {
    const query = new URLSearchParams({ name: CAMERA, ...(day ? { day } : {}) });
    const response = await fetch(`${portal.url}/api/Webcam/GetImageHistory?${query}`);
    return response.ok ? ((await response.json()) as { images: Image[] }).images.map((image) => image.name) : [];
  }

  beforeAll(async () => {
    // No schedules: the pictures are the backfill's and the test's, so the current picture stays put.
    portal = await startTestPortal({ demoBackfillMinutes: 20, schedule: false });
    browser = await launchChromium();
    const deadline = Date.now() + 120_000;
    for (let count = -1, stable = 0; count < 3 || stable < 3; ) {
      if (Date.now() > deadline) throw new Error(`${CAMERA} delivered no history within 2 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 700));
      const now = (await history()).length;
      stable = now === count ? stable + 1 : 0;
      count = now;
    }
    current = (await history()).at(-1) as string;

    // The demo has only the last minutes: older captures through svc-imaging's own pipeline, as the schedule makes them.
    const imaging = imagingPartsOf(portal.services.imaging);
    const camera = await imaging.cameraDirectory.byName(CAMERA);
    if (!camera) throw new Error(`No camera ${CAMERA} in svc-imaging`);
    const demo = { ...imaging.capture.context, source: (c: CameraRow, at: Date) => renderDemoImage(c.name, at) };
    // A's minute, and 24 hours before it two pictures: 10 minutes and 3 hours off its time of day, on the same day.
    let tick = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    while (imageNameOf(tick) > current) tick = new Date(tick.getTime() - 60_000);
    const towards = Number(current.slice(8, 10)) >= 3 ? -1 : 1;
    const nearTick = new Date(tick.getTime() - DAY_MS + towards * 10 * 60_000);
    const farTick = new Date(tick.getTime() - DAY_MS + towards * 3 * 60 * 60_000);
    for (const seeded of [nearTick, farTick]) {
      const outcome = await captureTick(demo, camera, seeded);
      if (outcome.outcome !== 'captured') throw new Error(`Seeding ${imageNameOf(seeded)}: ${outcome.outcome}`);
    }
    yesterday = imageNameOf(nearTick);
    yesterdayFarther = imageNameOf(farTick);
    // svc-webcam lists them once the bus has carried the captures over.
    while (
      !(await history(isoDay(yesterday))).includes(yesterday) ||
      !(await history(isoDay(yesterdayFarther))).includes(yesterdayFarther)
    ) {
      if (Date.now() > deadline + 60_000) throw new Error('The seeded pictures were not listed within 3 minutes');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });

  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  const params = (page: Page) => new URL(page.url()).searchParams;
  const pictureB = (page: Page) => page.getByRole('img', { name: /^Bild B/ });
  const divider = (page: Page) => page.getByRole('slider', { name: 'Trennlinie zwischen Bild A und Bild B' });
  const dividerAt = async (page: Page) => Number(await divider(page).getAttribute('aria-valuenow'));

  /** What axe finds serious or critical on the page. */
  async function seriousViolations(page: Page): Promise<string[]> {
    const result = await new AxeBuilder({ page }).analyze();
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  }

  /** Drags the divider to `share` of the picture's width: the mouse on a desktop, a finger on a phone. */
  async function dragDivider(page: Page, share: number, touch: boolean) {
    const stage = await page.locator('.compare__swipe').boundingBox();
    const handle = await divider(page).boundingBox();
    if (!stage || !handle) throw new Error('no swipe view on screen');
    const from = { x: handle.x + handle.width / 2, y: stage.y + stage.height / 2 };
    const to = { x: stage.x + stage.width * share, y: from.y };
    if (!touch) {
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      await page.mouse.move(to.x, to.y, { steps: 8 });
      await page.mouse.up();
      return;
    }
    const cdp = await page.context().newCDPSession(page);
    const point = (x: number) => [{ x, y: from.y, id: 1 }];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(from.x) });
    for (let step = 1; step <= 8; step++) {
      const x = from.x + ((to.x - from.x) * step) / 8;
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(x) });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await cdp.detach();
  }

  for (const [size, viewport, touch] of [
    ['desktop', DESKTOP, false],
    ['phone', PHONE, true],
  ] as const) {
    it(`compares the current picture with yesterday's, side by side and with the divider (${size})`, async () => {
      const page = await browser.newPage({ viewport, hasTouch: touch, isMobile: touch, locale: 'de-CH' });
      const press = (name: string) => {
        const button = page.getByRole('button', { name, exact: true });
        return touch ? button.tap() : button.click();
      };
      const compareCode: string[] = [];
      page.on('request', (request) => {
        if (/compare-view/.test(request.url())) compareCode.push(request.url());
      });
      await page.goto(`${portal.url}/webcam/${CAMERA}`);
      await page.getByRole('img', { name: new RegExp(`^Webcam ${CAMERA}`) }).waitFor(PATIENCE);
      // The compare code is fetched when the view opens, not with the page.
      expect(compareCode).toEqual([]);

      await press('Vergleichen');
      await page.getByRole('heading', { name: 'Vergleichen' }).waitFor(PATIENCE);
      expect(compareCode.length).toBeGreaterThan(0);
      expect(params(page).get('compare')).toBe('side');
      expect(params(page).get('t')).toBe(current);
      expect(await page.getByRole('img', { name: /^Bild A/ }).getAttribute('src')).toBe(
        `/api/Image/Get/camera/${CAMERA}/${current}.jpg`,
      );

      // A week ago the demo camera had no pictures: the view says so.
      await press('Vor einer Woche');
      await page.getByText(/^Vom .* gibt es kein Bild\.$/).waitFor(PATIENCE);
      expect(params(page).has('vs')).toBe(false);

      await press('Vor einem Tag');
      await expect
        .poll(() => pictureB(page).getAttribute('src'), PATIENCE)
        .toBe(`/api/Image/Get/camera/${CAMERA}/${yesterday}.jpg`);
      await expect.poll(() => params(page).get('vs'), PATIENCE).toBe(yesterday);
      await expect
        .poll(() => pictureB(page).evaluate((img: HTMLImageElement) => img.naturalWidth), PATIENCE)
        .toBeGreaterThan(0);
      // Each picture says when it was taken.
      await expect
        .poll(
          () =>
            page
              .locator('figcaption')
              .filter({ hasText: /Aufnahme vom .*, \d\d:\d\d Uhr/ })
              .count(),
          PATIENCE,
        )
        .toBe(2);
      // Side by side on a desktop, one above the other on a phone.
      const a = await page.getByRole('img', { name: /^Bild A/ }).boundingBox();
      const b = await pictureB(page).boundingBox();
      if (!a || !b) throw new Error('a picture is not on screen');
      if (touch) expect(b.y).toBeGreaterThanOrEqual(a.y + a.height);
      else expect([b.y, b.x > a.x + a.width]).toEqual([a.y, true]);
      await page.screenshot({ path: join(ARTIFACTS, `compare-side-${size}.png`), fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);

      await press('Schieberegler');
      await divider(page).waitFor(PATIENCE);
      expect(params(page).get('compare')).toBe('swipe');
      // Both pictures in the same box, exactly on top of each other.
      const under = await page.getByRole('img', { name: /^Bild A/ }).boundingBox();
      const over = await pictureB(page).boundingBox();
      expect(over).toEqual(under);
      // The A and B badges leave the picture's top-left corner free: cameras burn their name and time in there.
      if (!under) throw new Error('picture A is not on screen');
      const corner = { x: under.x, y: under.y, width: under.width * 0.4, height: under.height * 0.15 };
      for (const badge of ['a', 'b']) {
        const box = await page.locator(`.compare__tag--${badge}`).boundingBox();
        if (!box) throw new Error(`badge ${badge} is not on screen`);
        expect(box.width).toBeGreaterThan(0);
        const apart =
          box.x >= corner.x + corner.width ||
          box.x + box.width <= corner.x ||
          box.y >= corner.y + corner.height ||
          box.y + box.height <= corner.y;
        expect({ badge, box, apart }).toEqual({ badge, box, apart: true });
      }
      expect(await dividerAt(page)).toBe(50);
      await dragDivider(page, 0.25, touch);
      await expect.poll(() => dividerAt(page), PATIENCE).toBeGreaterThanOrEqual(22);
      expect(await dividerAt(page)).toBeLessThanOrEqual(28);
      const dragged = await dividerAt(page);
      if (!touch) {
        // The drag left the focus on the divider: the keys go on from there.
        await page.keyboard.press('ArrowRight');
        await expect.poll(() => dividerAt(page), PATIENCE).toBe(dragged + 5);
      }
      expect(await pictureB(page).evaluate((img: HTMLImageElement) => img.style.clipPath)).toMatch(
        /^inset\(0px 0px 0px \d/,
      );
      await page.screenshot({ path: join(ARTIFACTS, `compare-swipe-${size}.png`), fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
      expect(Object.fromEntries(params(page))).toEqual({ t: current, compare: 'swipe', vs: yesterday });

      // The URL holds the view: a reload shows the same two pictures in the same layout.
      await page.reload();
      await divider(page).waitFor(PATIENCE);
      await expect
        .poll(() => pictureB(page).getAttribute('src'), PATIENCE)
        .toBe(`/api/Image/Get/camera/${CAMERA}/${yesterday}.jpg`);
      expect(await page.getByRole('img', { name: /^Bild A/ }).getAttribute('src')).toBe(
        `/api/Image/Get/camera/${CAMERA}/${current}.jpg`,
      );

      // Back closes it: the page shows the picture with its day slider again.
      await page.goBack();
      await page.getByRole('heading', { name: 'Vergleichen' }).waitFor({ state: 'detached', ...PATIENCE });
      await page.getByRole('slider', { name: 'Aufnahmezeit' }).waitFor(PATIENCE);
      expect(params(page).has('compare')).toBe(false);
      expect(params(page).has('vs')).toBe(false);
    }, 180_000);
  }

  it('picks any moment of a day with pictures, and a link to an unknown one falls back with a note', async () => {
    const page = await browser.newPage({ viewport: DESKTOP, locale: 'de-CH' });
    await page.goto(`${portal.url}/webcam/${CAMERA}?t=${current}&compare=side`);
    await page.getByRole('heading', { name: 'Vergleichen' }).waitFor(PATIENCE);
    await page.getByRole('button', { name: 'Beliebiger Zeitpunkt' }).click();
    const day = page.getByRole('combobox', { name: 'Tag' });
    await expect.poll(() => day.locator('option[value]:not([value=""])').count(), PATIENCE).toBeGreaterThan(0);
    // The seeded day may lie in the month before (on the 1st): turn there if needed.
    if ((await day.locator(`option[value="${isoDay(yesterday)}"]`).count()) === 0)
      await page.getByRole('button', { name: 'Vorheriger Monat' }).click();
    await expect.poll(() => day.locator(`option[value="${isoDay(yesterday)}"]`).count(), PATIENCE).toBe(1);
    await day.selectOption(isoDay(yesterday));
    await expect.poll(() => params(page).get('vs'), PATIENCE).toBe(yesterday);
    await page.getByRole('combobox', { name: 'Uhrzeit' }).selectOption(yesterdayFarther);
    await expect
      .poll(() => pictureB(page).getAttribute('src'), PATIENCE)
      .toBe(`/api/Image/Get/camera/${CAMERA}/${yesterdayFarther}.jpg`);
    expect(params(page).get('vs')).toBe(yesterdayFarther);
    await page.screenshot({ path: join(ARTIFACTS, 'compare-any-moment-desktop.png'), fullPage: true });

    await page.goto(`${portal.url}/webcam/${CAMERA}?t=${current}&compare=swipe&vs=200001010000`);
    await page.getByText(/^Vom .*00:00 Uhr gibt es kein Bild \(mehr\)\. Wählen Sie Bild B neu\.$/).waitFor(PATIENCE);
    await expect.poll(() => params(page).has('vs'), PATIENCE).toBe(false);
    await page.goto(`${portal.url}/webcam/${CAMERA}?t=${current}&compare=side&vs=gestern`);
    await page
      .getByText('Der Link nennt keinen gültigen Vergleichszeitpunkt. Wählen Sie Bild B neu.')
      .waitFor(PATIENCE);
  }, 180_000);

  it('leaves the compare code out of the home page', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto(portal.url);
    await mainHeading(page).waitFor(PATIENCE);
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((url) => /compare-view/.test(url))).toEqual([]);
  });
});
