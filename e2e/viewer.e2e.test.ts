import type { CameraListItem } from '@lakecams/contracts';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '../scripts/portal.ts';
import { closePagesAfterEachTest, DESKTOP, launchChromium, logIn, PHONE } from './browser.ts';
import { ARTIFACTS, startTestPortal } from './embedded-portal.ts';
import { signedInApi } from './portal-api.ts';

const CAMERA = 'Rapperswil-Seedamm';
const BACKFILL_MINUTES = 20;
/** The machine is shared with other builds: waits are generous, never fixed sleeps. */
const PATIENCE = { timeout: 60_000 };
const ADMIN = { username: 'viewer-admin', email: 'viewer-admin@example.org', password: 'ZoomUndSchwenk$2026' };

describe('the full-screen picture viewer and links to a moment (Chromium)', () => {
  let portal: RunningPortal;
  let browser: Browser;
  let cameras: CameraListItem[];
  closePagesAfterEachTest(() => browser);

  beforeAll(async () => {
    // No schedules: the pictures are the backfill's, so the day's list stays as the test saw it.
    portal = await startTestPortal({ demoBackfillMinutes: BACKFILL_MINUTES, schedule: false, admin: ADMIN });
    browser = await launchChromium();
    const deadline = Date.now() + 120_000;
    const pictures = async () => {
      cameras = (await (await fetch(`${portal.url}/api/Webcam/GetImages`)).json()) as CameraListItem[];
      const pictured = cameras.filter((item) => item.images.filter(Boolean).length > 0);
      return pictured.some((item) => item.webcam.name === CAMERA) ? pictured.length : 0;
    };
    while ((await pictures()) < 2) {
      if (Date.now() > deadline) throw new Error('The demo cameras delivered no pictures within 2 minutes');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });

  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  /** The day's picture names, oldest first, once the backfill has made at least `count`. */
  async function picturesOf(camera: string, count: number): Promise<string[]> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const history = (await (
        await fetch(`${portal.url}/api/Webcam/GetImageHistory?name=${encodeURIComponent(camera)}`)
      ).json()) as { images: { name: string }[] };
      if (history.images.length >= count) return history.images.map((image) => image.name);
      if (Date.now() > deadline) throw new Error(`${camera} has fewer than ${count} pictures`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  /**
   * The camera's pictures by day (oldest first) once its backfill is complete: it runs newest first, and an
   * older picture arriving later would shift the day the page shows while the test steps through it.
   */
  async function backfilledDays(camera: string): Promise<string[][]> {
    const interval = cameras.find((item) => item.webcam.name === camera)?.webcam.intervalMin ?? 5;
    const expected = Math.floor(BACKFILL_MINUTES / interval) + 1;
    const dayOf = async (day?: string) =>
      (await (
        await fetch(
          `${portal.url}/api/Webcam/GetImageHistory?name=${encodeURIComponent(camera)}${day ? `&day=${day}` : ''}`,
        )
      ).json()) as { day: string; days: string[]; images: { name: string }[] };
    const deadline = Date.now() + 120_000;
    for (;;) {
      const today = await dayOf();
      const days = await Promise.all(
        today.days.map(async (day) => (day === today.day ? today : await dayOf(day)).images.map((image) => image.name)),
      );
      if (days.flat().length >= expected) return days;
      if (Date.now() > deadline) throw new Error(`${camera} has fewer than ${expected} pictures`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  const viewer = (page: Page) => page.getByRole('dialog', { name: /vergrössert/ });
  const zoomOf = async (page: Page) =>
    Number((await page.locator('.picture-viewer__stage').getAttribute('data-zoom')) ?? 0);
  const shownPicture = (page: Page) => page.getByRole('img', { name: new RegExp(`^Webcam ${CAMERA}`) });

  /** A page signed in as the admin, whose own configuration gives it FULL of the camera (2560 px: room to zoom). */
  async function signedInWithFull(viewport: { width: number; height: number }): Promise<Page> {
    const admin = await signedInApi(portal.url, ADMIN);
    const camera = cameras.find((item) => item.webcam.name === CAMERA)?.webcam;
    await admin.post(
      `/api/Webcam/SetConfiguration/configuration?webcamId=${camera?.id}&userId=${admin.user.id}&quality=FULL`,
    );
    const page = await browser.newPage({ viewport, locale: 'de-CH' });
    await page.goto(`${portal.url}/login`);
    await logIn(page, ADMIN);
    await page.waitForURL(`${portal.url}/`);
    return page;
  }

  /** The width of the picture the camera page shows, once it has loaded. */
  const shownWidth = (page: Page) => shownPicture(page).evaluate((image) => (image as HTMLImageElement).naturalWidth);

  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`opens the picture full screen, zooms with the keyboard and closes with Esc (${size})`, async () => {
      const page = await signedInWithFull(viewport);
      const viewerCode: string[] = [];
      page.on('request', (request) => {
        if (/openseadragon|picture-viewer/.test(request.url())) viewerCode.push(request.url());
      });
      await page.goto(`${portal.url}/webcam/${CAMERA}`);
      await shownPicture(page).waitFor(PATIENCE);
      // The viewer's code is fetched when it opens, not with the page.
      expect(viewerCode).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `viewer-camera-page-${size}.png`) });
      await page.getByRole('button', { name: 'Vergrössern' }).click();
      await viewer(page).waitFor(PATIENCE);
      expect(new URL(page.url()).searchParams.get('zoom')).toBe('1');
      await page.locator('.picture-viewer__stage[data-zoom]').waitFor(PATIENCE);
      expect(viewerCode.length).toBeGreaterThan(0);
      await viewer(page).getByText('· Volle Qualität').waitFor(PATIENCE);
      await expect.poll(() => page.getByText('Bild wird geladen …').count(), PATIENCE).toBe(0);
      const fitted = await zoomOf(page);
      await page.screenshot({ path: join(ARTIFACTS, `viewer-${size}.png`) });
      await page.keyboard.press('+');
      await page.keyboard.press('+');
      await expect.poll(() => zoomOf(page), PATIENCE).toBeGreaterThan(fitted * 1.5);
      const zoomed = await zoomOf(page);
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('-');
      await expect.poll(() => zoomOf(page), PATIENCE).toBeLessThan(zoomed);
      // Zoomed in until a picture pixel fills a screen pixel: there "+" rests and a line says so.
      await expect
        .poll(async () => {
          await page.keyboard.press('+');
          return viewer(page).getByRole('button', { name: 'Vergrössern' }).isDisabled();
        }, PATIENCE)
        .toBe(true);
      await viewer(page)
        .getByText('Weiter vergrössern geht nicht: die Kamera liefert dieses Bild nicht grösser.')
        .waitFor(PATIENCE);
      await page.screenshot({ path: join(ARTIFACTS, `viewer-zoomed-${size}.png`) });
      await page.keyboard.press('Escape');
      await viewer(page).waitFor({ state: 'detached', ...PATIENCE });
      expect(new URL(page.url()).searchParams.has('zoom')).toBe(false);
      await shownPicture(page).waitFor(PATIENCE);
    }, 120_000);
  }

  it('stops zooming where the picture runs out of pixels and says in German how to get more', async () => {
    const page = await browser.newPage({ viewport: DESKTOP, locale: 'de-CH' });
    await page.goto(`${portal.url}/webcam/${CAMERA}?zoom=1`);
    await viewer(page).waitFor(PATIENCE);
    await viewer(page).getByText('· Einfache Qualität').waitFor(PATIENCE);
    const fitted = await zoomOf(page);
    // 480 px across 1280 screen pixels: already more than one screen pixel per picture pixel.
    const limit = viewer(page).getByText(
      /^Weiter vergrössern geht nicht: Einfache Qualität \(480 px breit\), die Kamera liefert \d+ px\./,
    );
    await limit.waitFor(PATIENCE);
    expect(await viewer(page).getByRole('button', { name: 'Vergrössern' }).isDisabled()).toBe(true);
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    await page.mouse.move(640, 300);
    await page.mouse.wheel(0, -600);
    await page.waitForTimeout(300);
    expect(await zoomOf(page)).toBeLessThanOrEqual(fitted * 1.001);
    expect(
      await viewer(page).getByRole('link', { name: 'Bessere Qualität mit einem Konto' }).getAttribute('href'),
    ).toBe('/register');
    await page.screenshot({ path: join(ARTIFACTS, 'viewer-limit-desktop.png') });
  }, 120_000);

  it('tells a phone visitor that the picture is blown up, counting the screen pixels', async () => {
    const page = await browser.newPage({ viewport: PHONE, deviceScaleFactor: 3, locale: 'de-CH' });
    await page.goto(`${portal.url}/webcam/${CAMERA}`);
    await shownPicture(page).waitFor(PATIENCE);
    await expect.poll(() => shownWidth(page), PATIENCE).toBe(480);
    await page
      .getByText(/^Vergrössert dargestellt: Einfache Qualität \(480 px breit\), die Kamera liefert \d+ px\./)
      .waitFor(PATIENCE);
    await page.getByRole('link', { name: 'Bessere Qualität mit einem Konto' }).waitFor(PATIENCE);
    await page.screenshot({ path: join(ARTIFACTS, 'viewer-quality-note-phone.png') });
  }, 120_000);

  it('opens a deep link to a moment, keeps it in the URL and goes back and forward', async () => {
    const days = await backfilledDays(CAMERA);
    const current = days[0]?.at(-1);
    // Three neighbours of one day (the day before, just after midnight).
    const [first, second] = (days.find((names) => names.length >= 3) ?? []).slice(-3) as [string, string];
    if (!first || !second) throw new Error('needs three pictures of one day');
    const page = await browser.newPage({ viewport: DESKTOP, locale: 'de-CH' });
    await page.goto(`${portal.url}/webcam/${CAMERA}?t=${second}`);
    await expect
      .poll(() => shownPicture(page).getAttribute('src'), PATIENCE)
      .toBe(`/api/Image/Get/camera/${CAMERA}/${second}.jpg`);
    // Stepping through the day replaces the URL's moment.
    await page.getByRole('button', { name: /Früher/ }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('t'), PATIENCE).toBe(first);
    // The viewer is an entry of its own: back closes it, forward opens it again.
    await page.getByRole('button', { name: 'Vergrössern' }).click();
    await viewer(page).waitFor(PATIENCE);
    await viewer(page).getByRole('button', { name: 'Späteres Bild' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('t'), PATIENCE).toBe(second);
    await page.goBack();
    await viewer(page).waitFor({ state: 'detached', ...PATIENCE });
    await expect.poll(() => new URL(page.url()).searchParams.get('t'), PATIENCE).toBe(first);
    await expect.poll(() => shownPicture(page).getAttribute('src'), PATIENCE).toContain(`/${first}.jpg`);
    await page.goForward();
    await viewer(page).waitFor(PATIENCE);
    await expect.poll(() => new URL(page.url()).searchParams.get('t'), PATIENCE).toBe(second);
    await page.keyboard.press('Escape');
    await expect.poll(() => shownPicture(page).getAttribute('src'), PATIENCE).toContain(`/${second}.jpg`);
    // A moment with no picture falls back to the current one and says so.
    await page.goto(`${portal.url}/webcam/${CAMERA}?t=200001010000`);
    await page.getByText(/gibt es kein Bild \(mehr\)\. Gezeigt wird das aktuelle Bild\./).waitFor(PATIENCE);
    await expect.poll(() => shownPicture(page).getAttribute('src'), PATIENCE).toContain(`/${current}.jpg`);
    await page.screenshot({ path: join(ARTIFACTS, 'viewer-unknown-moment-desktop.png') });
  }, 120_000);

  it('shows a wide picture as deep-zoom tiles of the level the visitor is entitled to, from a card', async () => {
    const camera = cameras.find((item) => item.webcam.name !== CAMERA && item.images.some(Boolean))?.webcam;
    if (!camera) throw new Error('needs a second demo camera');
    await picturesOf(camera.name, 1);
    // Every signed-in user gets HIGH (1920 px) of this camera: wider than the screen, so the viewer uses tiles.
    const admin = await signedInApi(portal.url, ADMIN);
    await admin.post(`/api/Webcam/SetConfiguration/configuration?webcamId=${camera.id}&quality=HIGH`);
    const page = await browser.newPage({ viewport: DESKTOP, locale: 'de-CH' });
    await page.goto(`${portal.url}/login`);
    await logIn(page, ADMIN);
    await page.waitForURL(`${portal.url}/`);
    const zoomAnswers: { url: string; status: number }[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/Image/Zoom/'))
        zoomAnswers.push({ url: response.url(), status: response.status() });
    });
    await page.goto(`${portal.url}/webcams`);
    await page.getByRole('link', { name: `${camera.name} vergrössern` }).waitFor(PATIENCE);
    await page.screenshot({ path: join(ARTIFACTS, 'viewer-cards-desktop.png') });
    await page.getByRole('link', { name: `${camera.name} vergrössern` }).click();
    await viewer(page).waitFor(PATIENCE);
    await expect
      .poll(() => zoomAnswers.filter((answer) => answer.url.includes('_files/')).length, PATIENCE)
      .toBeGreaterThan(0);
    const descriptor = zoomAnswers.find((answer) => answer.url.includes('.dzi'));
    expect(descriptor).toMatchObject({ status: 200 });
    expect(descriptor?.url).toMatch(/\.dzi\?level=HIGH$/);
    expect(zoomAnswers.every((answer) => answer.status === 200 && answer.url.endsWith('?level=HIGH'))).toBe(true);
    await page.getByText('· Hohe Qualität').waitFor(PATIENCE);
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    const tilesBefore = zoomAnswers.length;
    await expect.poll(() => zoomAnswers.length, PATIENCE).toBeGreaterThan(tilesBefore);
    await page.screenshot({ path: join(ARTIFACTS, 'viewer-tiles-desktop.png') });
    // Above its level the visitor gets nothing.
    const full = await page.evaluate(
      async (url) => (await fetch(url)).status,
      descriptor?.url.replace('level=HIGH', 'level=FULL') ?? '',
    );
    expect(full).toBe(403);
  }, 180_000);

  it('raises the pictures as soon as a Premium code is redeemed, without logging in again', async () => {
    // A camera nobody configured: the admin, signed in, gets LOW (800 px) as every signed-in user does.
    // The second camera after CAMERA: the one before is configured for all other users above.
    const other = cameras.filter((item) => item.webcam.name !== CAMERA && item.images.some(Boolean)).at(1)?.webcam;
    if (!other) throw new Error('needs three demo cameras');
    const admin = await signedInApi(portal.url, ADMIN);
    const [code] = await admin.post<string[]>('/api/Code/CreateCodes?feature=Premium&count=1');
    const page = await browser.newPage({ viewport: DESKTOP, locale: 'de-CH' });
    await page.goto(`${portal.url}/login`);
    await logIn(page, ADMIN);
    await page.waitForURL(`${portal.url}/`);
    await page.goto(`${portal.url}/webcam/${other.name}`);
    const picture = page.getByRole('img', { name: new RegExp(`^Webcam ${other.name}`) });
    await picture.waitFor(PATIENCE);
    const width = () => picture.evaluate((image) => (image as HTMLImageElement).naturalWidth);
    await expect.poll(width, PATIENCE).toBe(800);
    await page
      .getByText(/^Vergrössert dargestellt: Tiefe Qualität \(800 px breit\), die Kamera liefert/)
      .waitFor(PATIENCE);

    await page.goto(`${portal.url}/user`);
    await page.getByLabel('Code', { exact: true }).fill(code as string);
    await page.getByRole('button', { name: 'Einlösen' }).click();
    await page.getByRole('list', { name: 'Rollen' }).getByText('Premium').waitFor(PATIENCE);
    // Back to the camera inside the page, as a visitor goes: no reload, no new login.
    await page.getByRole('navigation', { name: 'Hauptmenü' }).getByRole('link', { name: 'Webcams' }).click();
    await page.getByRole('link', { name: new RegExp(`^Aktuelles Bild der Webcam ${other.name}`) }).click();
    await expect.poll(width, PATIENCE).toBe(1280);
    // 1280 px fill the picture's box: no note, and never the false "the camera delivers no more".
    await expect.poll(() => page.getByText(/^Vergrössert dargestellt/).count(), PATIENCE).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'viewer-after-premium-desktop.png') });
  }, 180_000);
});
