import type { CameraListItem, Image } from '@lakecams/contracts';
import { DEMO_CAMERAS } from '@lakecams/svc-webcam/testing';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '../scripts/portal.ts';
import { closePagesAfterEachTest, DESKTOP, launchChromium, mainHeading, PHONE, showLiveMap } from './browser.ts';
import { ARTIFACTS, startTestPortal } from './embedded-portal.ts';
import { signedInApi } from './portal-api.ts';
import { startTileServer, type TileServer } from './tile-server.ts';

/** The machine is shared with other builds: waits are generous, never fixed sleeps. */
const PATIENCE = { timeout: 60_000 };
/** As long as the default tiles' credit, which takes two lines on a phone. */
const ATTRIBUTION = 'Tiles &copy; Esri &mdash; Source: Esri, Maxar, Earthstar Geographics, and the GIS User Community';

type Box = { x: number; y: number; width: number; height: number };
const centre = (box: Box) => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
/** The part of `a` inside `b`, or null when they do not overlap. */
function overlap(a: Box, b: Box): Box | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
}

/**
 * docs/decisions.md, "The map on a phone": on a 390×844 touch screen a tap on a cluster spreads its
 * cameras out, and one more tap on a camera's marker opens that camera.
 */
describe('the map on a phone (Chromium, touch)', () => {
  let portal: RunningPortal;
  let tiles: TileServer;
  let browser: Browser;
  closePagesAfterEachTest(() => browser);

  /** The cameras that clustered on purpose. */
  let clustered: string[] = [];
  const names = new Map<number, string>();

  /** Each camera's latest picture with its position. */
  async function positioned(): Promise<Image[]> {
    const list = (await (await fetch(`${portal.url}/api/Webcam/GetImages`)).json()) as CameraListItem[];
    const latest: Image[] = [];
    for (const item of list) {
      const image = item.images.find((candidate) => candidate !== null);
      if (!image || (image.lat === 0 && image.lng === 0)) continue;
      names.set(item.webcam.id, item.webcam.name);
      latest.push(image);
    }
    return latest;
  }

  beforeAll(async () => {
    tiles = await startTileServer();
    // No schedules: the cameras keep the positions of their first pictures.
    portal = await startTestPortal({
      demoBackfillMinutes: 10,
      schedule: false,
      mapTiles: { url: tiles.urlTemplate, attribution: ATTRIBUTION },
    });
    browser = await launchChromium();
    const deadline = Date.now() + 120_000;
    while ((await positioned()).length < DEMO_CAMERAS.length) {
      if (Date.now() > deadline) throw new Error('The demo cameras delivered no pictures within 2 minutes');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    // The demo cameras stand apart at zoom 13. Two of them move beside the camera nearest the middle, where
    // the phone's map opens; neither lies on the edge of the cameras' bounds, so the map opens where it did.
    const cameras = await positioned();
    const lats = cameras.map((camera) => camera.lat);
    const lngs = cameras.map((camera) => camera.lng);
    const middle = {
      lat: (Math.min(...lats) + Math.max(...lats)) / 2,
      lng: (Math.min(...lngs) + Math.max(...lngs)) / 2,
    };
    const distance = (camera: Image) => Math.hypot(camera.lat - middle.lat, camera.lng - middle.lng);
    const anchor = [...cameras].sort((a, b) => distance(a) - distance(b))[0] as Image;
    const onEdge = (camera: Image) =>
      [Math.min(...lats), Math.max(...lats)].includes(camera.lat) ||
      [Math.min(...lngs), Math.max(...lngs)].includes(camera.lng);
    const movers = cameras.filter((camera) => camera !== anchor && !onEdge(camera)).slice(0, 2);
    if (movers.length < 2) throw new Error('needs two demo cameras inside the bounds of the others');
    const admin = portal.demoAdmin;
    if (!admin) throw new Error('The portal created no demo admin');
    const api = await signedInApi(portal.url, admin);
    const beside = [
      { lat: anchor.lat + 0.0004, lng: anchor.lng - 0.0005 },
      { lat: anchor.lat - 0.0004, lng: anchor.lng + 0.0005 },
    ];
    for (const [i, mover] of movers.entries()) {
      const { lat, lng } = beside[i] as { lat: number; lng: number };
      await api.post('/api/Image/SetPosition/set', {
        webcamId: mover.webcamId,
        name: mover.name,
        lat,
        lng,
        direction: mover.direction,
      });
    }
    clustered = [anchor, ...movers].map((camera) => names.get(camera.webcamId) ?? '');
    // svc-webcam's list follows once the bus has carried the change over.
    const listed = Date.now() + 120_000;
    for (;;) {
      const now = await positioned();
      const moved = movers.every((mover, i) =>
        now.some((c) => c.webcamId === mover.webcamId && Math.abs(c.lat - (beside[i]?.lat ?? 0)) < 1e-6),
      );
      if (moved) break;
      if (Date.now() > listed) throw new Error('The moved cameras were not listed within 2 minutes');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });

  afterAll(async () => {
    await browser?.close();
    await portal?.close();
    await tiles?.close();
  });

  /** Home at phone size with a touch screen, its tiles, cones and markers drawn. */
  async function openMap(): Promise<Page> {
    const page = await browser.newPage({ viewport: PHONE, hasTouch: true, isMobile: true, locale: 'de-CH' });
    await page.goto(`${portal.url}/`);
    await showLiveMap(page);
    await page.locator('.leaflet-tile-loaded').first().waitFor(PATIENCE);
    await expect.poll(() => page.locator('path.view-cone').count(), PATIENCE).toBe(DEMO_CAMERAS.length);
    return page;
  }

  const markers = (page: Page) => page.locator('.leaflet-marker-icon.camera-marker');
  const clusters = (page: Page) => page.locator('.leaflet-marker-icon.camera-cluster');
  const zoomOutDisabled = (page: Page) => page.locator('.leaflet-control-zoom-out').getAttribute('aria-disabled');

  /** Whether a point lies inside the map, clear of its edges (where arrows and controls sit). */
  async function insideMap(page: Page, box: Box): Promise<boolean> {
    const map = await page.locator('.camera-map').boundingBox();
    const { x, y } = centre(box);
    return !!map && x > map.x + 20 && x < map.x + map.width - 20 && y > map.y + 20 && y < map.y + map.height - 20;
  }

  /** The clusters in view, each with the camera count it shows. */
  async function clustersInView(page: Page): Promise<{ index: number; count: number }[]> {
    const found: { index: number; count: number }[] = [];
    const all = clusters(page);
    for (let index = 0; index < (await all.count()); index++) {
      const box = await all.nth(index).boundingBox();
      if (box && (await insideMap(page, box)))
        found.push({ index, count: Number(await all.nth(index).locator('span[aria-hidden]').textContent()) });
    }
    return found;
  }

  /** Taps a cluster and answers the markers it spread out, by camera name. */
  async function spread(page: Page, cluster: Locator, count: number): Promise<Map<string, Locator>> {
    const before = new Set(await markers(page).evaluateAll((all) => all.map((m) => m.getAttribute('title') ?? '')));
    await cluster.tap();
    const spreadOut = new Map<string, Locator>();
    await expect
      .poll(async () => {
        spreadOut.clear();
        for (const marker of await markers(page).all()) {
          const title = (await marker.getAttribute('title')) ?? '';
          if (!before.has(title)) spreadOut.set(title, marker);
        }
        return spreadOut.size;
      }, PATIENCE)
      .toBe(count);
    // Leaflet animates the spreading: wait until the markers stand still.
    await expect
      .poll(async () => {
        const first = await Promise.all([...spreadOut.values()].map((m) => m.boundingBox()));
        await page.evaluate(
          () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
        );
        const second = await Promise.all([...spreadOut.values()].map((m) => m.boundingBox()));
        return JSON.stringify(first) === JSON.stringify(second);
      }, PATIENCE)
      .toBe(true);
    return spreadOut;
  }

  it('opens centred on the cameras, the cluster in view, at the smallest zoom', async () => {
    const page = await openMap();
    expect(await zoomOutDisabled(page)).toBe('true');
    await page.screenshot({ path: join(ARTIFACTS, 'phone-map-start.png') });
    const inView = await clustersInView(page);
    expect(inView.map((cluster) => cluster.count)).toEqual([clustered.length]);
  });

  it('reaches every camera of a cluster with one tap on the cluster and one on its marker', async () => {
    const start = await openMap();
    const inView = await clustersInView(start);
    await start.close();
    expect(inView.length).toBeGreaterThan(0);
    let reached = 0;
    for (const { index, count } of inView) {
      for (let member = 0; member < count; member++) {
        const page = await openMap();
        const cluster = clusters(page).nth(index);
        const clusterBox = await cluster.boundingBox();
        if (!clusterBox) throw new Error('the cluster is not on screen');
        const spreadOut = await spread(page, cluster, count);
        expect([...spreadOut.keys()].sort()).toEqual([...clustered].sort());
        // One tap, no zoom: the cluster's cameras stand around it.
        expect(await zoomOutDisabled(page)).toBe('true');
        if (reached === 0) await page.screenshot({ path: join(ARTIFACTS, 'phone-map-cluster-spread.png') });
        const [name, marker] = [...spreadOut.entries()].sort(([a], [b]) => a.localeCompare(b))[member] as [
          string,
          Locator,
        ];
        const box = await marker.boundingBox();
        if (!box) throw new Error(`${name}'s marker is not on screen`);
        // A finger lands a little off the 15 px dot, away from the cluster: still that marker's target.
        const dot = centre(box);
        const from = centre(clusterBox);
        const away = Math.hypot(dot.x - from.x, dot.y - from.y) || 1;
        const x = dot.x + (10 * (dot.x - from.x)) / away;
        const y = dot.y + (10 * (dot.y - from.y)) / away;
        const hit = await page.evaluate(
          ({ x, y }) => document.elementFromPoint(x, y)?.closest('.leaflet-marker-icon')?.getAttribute('title') ?? '',
          { x, y },
        );
        expect(hit, `the finger beside ${name}'s dot hits`).toBe(name);
        await page.touchscreen.tap(x, y);
        await page.waitForURL(`${portal.url}/webcam/${encodeURIComponent(name)}`, PATIENCE);
        await expect.poll(() => mainHeading(page).textContent(), PATIENCE).toBe(name);
        reached++;
        await page.close();
      }
    }
    expect(reached).toBe(inView.reduce((sum, cluster) => sum + cluster.count, 0));
  }, 300_000);

  /** Home with every tile refused, once the notice shows and the markers stand still. */
  async function openMapWithoutTiles(size: 'phone' | 'desktop'): Promise<Page> {
    const page = await browser.newPage(
      size === 'phone'
        ? { viewport: PHONE, hasTouch: true, isMobile: true, locale: 'de-CH' }
        : { viewport: DESKTOP, locale: 'de-CH' },
    );
    await page.route(/\/\d+\/\d+\/\d+\.png$/, (route) => route.abort());
    await page.goto(`${portal.url}/`);
    await showLiveMap(page);
    await page.getByRole('alert').filter({ hasText: 'Karte nicht verfügbar.' }).waitFor(PATIENCE);
    await expect.poll(() => page.locator('path.view-cone').count(), PATIENCE).toBe(DEMO_CAMERAS.length);
    await page.locator('.leaflet-marker-icon').first().waitFor(PATIENCE);
    // The map may re-measure and move its markers once the notice is in: wait until nothing moves.
    await expect
      .poll(async () => {
        const boxes = () =>
          page
            .locator('.leaflet-marker-icon, .camera-map__unavailable')
            .evaluateAll((all) => all.map((element) => JSON.stringify(element.getBoundingClientRect())).join('|'));
        const first = await boxes();
        await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
        return first === (await boxes());
      }, PATIENCE)
      .toBe(true);
    return page;
  }

  for (const size of ['phone', 'desktop'] as const) {
    it(`keeps the notice "Karte nicht verfügbar" off the credit, the controls and the markers (${size})`, async () => {
      const page = await openMapWithoutTiles(size);
      await page.screenshot({ path: join(ARTIFACTS, `map-tiles-unavailable-${size}.png`), fullPage: true });
      const notice = await page.locator('.camera-map__unavailable').boundingBox();
      // Leaflet's own box, which clips markers beyond its edges.
      const map = await page.locator('.camera-map .leaflet-container').boundingBox();
      if (!notice || !map) throw new Error('the notice or the map is not on screen');
      const covered: string[] = [];
      const check = async (selector: string, what: (index: number) => Promise<string>) => {
        const all = page.locator(selector);
        for (let index = 0; index < (await all.count()); index++) {
          const box = await all.nth(index).boundingBox();
          // Only what shows.
          const shown = box && overlap(box, map);
          if (shown && overlap(shown, notice)) covered.push(await what(index));
        }
      };
      await check('.leaflet-control-attribution', async () => 'the attribution');
      await check('.leaflet-control-zoom', async () => 'the zoom buttons');
      await check('.offscreen-cameras', async (index) => `arrow ${index}`);
      await check(
        '.leaflet-marker-icon',
        async (index) =>
          (await page.locator('.leaflet-marker-icon').nth(index).getAttribute('title')) ?? `cluster ${index}`,
      );
      expect(covered, 'what the notice covers').toEqual([]);
      // The attribution is shown in full, inside the map.
      const attribution = await page.locator('.leaflet-control-attribution').boundingBox();
      expect(attribution && overlap(attribution, map)).toEqual(attribution);
      expect(await page.locator('.leaflet-control-attribution').textContent()).toContain('Esri');
    });
  }
});
