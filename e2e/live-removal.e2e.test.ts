import type { CameraListItem } from '@lakecams/contracts';
import { DEMO_CAMERAS } from '@lakecams/svc-webcam/testing';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '../scripts/portal.ts';
import { closePagesAfterEachTest, DESKTOP, launchChromium, PHONE, showLiveMap } from './browser.ts';
import { ARTIFACTS, startTestPortal } from './embedded-portal.ts';
import { antiForgeryOf, signedInApi } from './portal-api.ts';
import { startTileServer, type TileServer } from './tile-server.ts';

/** The machine is shared with other builds: waits are generous, never fixed sleeps. */
const PATIENCE = { timeout: 60_000 };
/** The deletion travels from svc-webcam's outbox over the bus to the gateway and on to the page. */
const REMOVAL = { timeout: 30_000 };
const TEST_TIMEOUT = 240_000;

/**
 * docs/product.md §4.8: a camera an administrator deletes leaves the pages visitors have open, as a new
 * camera joins them, without a reload.
 */
describe('a camera the administrator deletes leaves open pages (Chromium)', () => {
  let portal: RunningPortal;
  let tiles: TileServer;
  let browser: Browser;
  closePagesAfterEachTest(() => browser);

  async function listed(): Promise<Map<string, number>> {
    const list = (await (await fetch(`${portal.url}/api/Webcam/GetImages`)).json()) as CameraListItem[];
    return new Map(
      list
        .filter((item) => item.images.some((image) => image !== null))
        .map((item) => [item.webcam.name, item.webcam.id]),
    );
  }

  /** Deletes a camera through the API, as the admin's camera page does. */
  async function deleteCamera(name: string): Promise<void> {
    const admin = portal.demoAdmin;
    if (!admin) throw new Error('The portal created no demo admin');
    const id = (await listed()).get(name);
    if (!id) throw new Error(`${name} is not listed`);
    const { user } = await signedInApi(portal.url, admin);
    const response = await fetch(`${portal.url}/api/Webcam/Delete`, {
      method: 'DELETE',
      headers: {
        ...(await antiForgeryOf(portal.url)),
        authorization: `Bearer ${user.jwtToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ id }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    await response.body?.cancel();
  }

  /** Opens `path` and waits until the page is connected to the live events; a marker tells a reload apart. */
  async function openLive(path: string, ready: (page: Page) => Promise<unknown>, viewport = DESKTOP): Promise<Page> {
    const page = await browser.newPage({ viewport, locale: 'de-CH' });
    const connected = page.waitForResponse((response) => response.url().endsWith('/api/Events/stream'), PATIENCE);
    await page.goto(`${portal.url}${path}`);
    await ready(page);
    await connected;
    await page.evaluate(() => {
      (window as unknown as { notReloaded?: boolean }).notReloaded = true;
    });
    return page;
  }

  const notReloaded = (page: Page) =>
    page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true);

  beforeAll(async () => {
    tiles = await startTileServer();
    // No schedules: no new picture reloads a list behind the test's back.
    portal = await startTestPortal({
      demoBackfillMinutes: 10,
      schedule: false,
      mapTiles: { url: tiles.urlTemplate, attribution: 'Testkacheln' },
    });
    browser = await launchChromium();
    const deadline = Date.now() + 120_000;
    while ((await listed()).size < DEMO_CAMERAS.length) {
      if (Date.now() > deadline) throw new Error('The demo cameras delivered no pictures within 2 minutes');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });

  afterAll(async () => {
    await browser?.close();
    await portal?.close();
    await tiles?.close();
  });

  it(
    'takes the card off /webcams',
    async () => {
      const cards = (page: Page) => page.locator('.camera-card__name');
      const page = await openLive('/webcams', (page) =>
        expect.poll(() => cards(page).count(), PATIENCE).toBe(DEMO_CAMERAS.length),
      );
      const gone = 'Maennedorf';
      expect(await cards(page).allTextContents()).toContain(gone);
      await deleteCamera(gone);
      await expect.poll(() => cards(page).allTextContents(), REMOVAL).not.toContain(gone);
      expect(await cards(page).count()).toBe(DEMO_CAMERAS.length - 1);
      expect(await notReloaded(page)).toBe(true);
      await page.screenshot({ path: join(ARTIFACTS, 'live-removal-webcams.png') });
    },
    TEST_TIMEOUT,
  );

  it(
    "takes the camera's marker and cone off the map and its entry off the home list",
    async () => {
      const remaining = (await listed()).size;
      const cones = (page: Page) => page.locator('path.view-cone');
      const marker = (page: Page, name: string) => page.locator(`.leaflet-marker-icon.camera-marker[title="${name}"]`);
      const entries = (page: Page) => page.locator('.direction-list__name');
      const gone = 'Insel-Ufenau';
      const map = await openLive('/', async (page) => {
        await showLiveMap(page);
        await expect.poll(() => cones(page).count(), PATIENCE).toBe(remaining);
        await marker(page, gone).waitFor(PATIENCE);
      });
      const list = await openLive(
        '/?ansicht=liste',
        (page) => expect.poll(() => entries(page).count(), PATIENCE).toBe(remaining),
        PHONE,
      );
      expect(await entries(list).allTextContents()).toContain(gone);

      await deleteCamera(gone);
      await expect.poll(() => entries(list).allTextContents(), REMOVAL).not.toContain(gone);
      expect(await entries(list).count()).toBe(remaining - 1);
      await expect.poll(() => cones(map).count(), REMOVAL).toBe(remaining - 1);
      await expect.poll(() => marker(map, gone).count(), REMOVAL).toBe(0);
      expect(await map.locator('.leaflet-marker-icon.camera-marker').count()).toBeGreaterThan(0);
      expect(await notReloaded(map)).toBe(true);
      expect(await notReloaded(list)).toBe(true);
      await list.screenshot({ path: join(ARTIFACTS, 'live-removal-home-list-phone.png'), fullPage: true });
    },
    TEST_TIMEOUT,
  );

  it(
    "tells a visitor on the camera's own page that it was removed",
    async () => {
      const gone = 'Staefa-Kehlhof';
      const page = await openLive(`/webcam/${gone}`, (page) =>
        page.getByRole('img', { name: new RegExp(`^Webcam ${gone}`) }).waitFor(PATIENCE),
      );
      await deleteCamera(gone);
      await page
        .getByRole('status')
        .filter({ hasText: 'Diese Webcam wurde soeben entfernt; ihre Bilder sind nicht mehr verfügbar.' })
        .waitFor(REMOVAL);
      expect(await page.getByRole('img', { name: new RegExp(`^Webcam ${gone}`) }).count()).toBe(0);
      expect(await notReloaded(page)).toBe(true);
      await page.screenshot({ path: join(ARTIFACTS, 'live-removal-camera-page.png') });
    },
    TEST_TIMEOUT,
  );
});
