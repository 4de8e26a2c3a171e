import { imageNameOf } from '@lakecams/contracts';
import { createTestClient, type TestClient } from '@lakecams/service-kit/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '../scripts/portal.ts';
import { closePagesAfterEachTest, DESKTOP, launchChromium, PHONE } from './browser.ts';
import { ARTIFACTS, startTestPortal } from './embedded-portal.ts';

const CAMERA = 'Waedenswil-Hafen';
const isoDay = (date: Date) => {
  const name = imageNameOf(date);
  return `${name.slice(0, 4)}-${name.slice(4, 6)}-${name.slice(6, 8)}`;
};

/**
 * A partner's site on a second origin (127.0.0.2) under a strict policy that allows only the portal for scripts,
 * pictures, video, data and frames, as README "Embedding a camera" tells partners. `/booked/…` is the booked
 * page, `/other/…` a page of the same site without a booking; `…/` embeds the custom element, `…/framed` the
 * `<iframe>` form, each exactly as camera setup hands them out.
 */
async function startPartnerSite(portal: string): Promise<{ url: string; server: Server }> {
  const policy = [
    "default-src 'none'",
    `script-src ${portal}`,
    `img-src ${portal}`,
    `media-src ${portal}`,
    `connect-src ${portal}`,
    `frame-src ${portal}`,
    // The partner's own style sheet only: the player needs no style source of its own.
    "style-src 'self'",
  ].join('; ');
  const page = (body: string, head = '') =>
    `<!doctype html><html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Seewetter</title><link rel="stylesheet" href="/site.css">${head}</head><body><h1>Seewetter am Zürichsee</h1>${body}<p>Text des Partners unter der Kamera. <button type="button">Abo</button></p></body></html>`;
  // Rules a partner's site may well have: they must not reach into the player, nor the player's out.
  const siteCss =
    'img { border: 12px solid red !important; } button { background: rgb(0, 255, 0); } .p { display: none; }';
  const element = page(
    `<seecam-player camera="${CAMERA}"></seecam-player>`,
    `<script type="module" src="${portal}/embed/v1.js" async></script>`,
  );
  const framed = page(
    `<iframe src="${portal}/api/Image/Embed/camera/${CAMERA}" title="Webcam ${CAMERA}" width="640" height="420" referrerpolicy="no-referrer-when-downgrade" allow="fullscreen"></iframe>`,
  );
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/site.css') return void response.writeHead(200, { 'content-type': 'text/css' }).end(siteCss);
    const html = path.endsWith('/framed') ? framed : path.endsWith('/') ? element : null;
    if (!html) return void response.writeHead(404).end();
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': policy })
      .end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  return { url: `http://127.0.0.2:${(server.address() as AddressInfo).port}`, server };
}

/** Cookies in the browser besides the one the tests' own start script sets (the cookie notice, e2e/browser.ts). */
async function portalCookies(page: Page) {
  return (await page.context().cookies()).filter((cookie) => cookie.name !== 'lakecams_cookie_notice');
}

/** The names of the pictures a page (and its frames) received, by their immutable names. */
function pictureNames(page: Page): string[] {
  const names: string[] = [];
  page.on('response', (response) => {
    const match = /\/pictures\/[^/]+\/([^/?]+)/.exec(response.url());
    if (match && response.status() === 200) names.push(match[1] as string);
  });
  return names;
}

describe('a camera embedded on a partner page of another origin, as a custom element and as a frame', () => {
  let portal: RunningPortal;
  let browser: Browser;
  let partner: { url: string; server: Server };
  let admin: TestClient;
  let webcamId: number;
  let bookedPage: string;
  closePagesAfterEachTest(() => browser);

  beforeAll(async () => {
    portal = await startTestPortal({ demoBackfillMinutes: 30 });
    partner = await startPartnerSite(portal.url);
    bookedPage = `${partner.url}/booked`;
    browser = await launchChromium();
    admin = createTestClient(portal.url);
    const login = await admin.post('/api/Authenticate/Authenticate', portal.demoAdmin);
    if (login.status !== 200) throw new Error(`admin login answered ${login.status}`);
    admin.setToken(login.json.jwtToken);
    // The camera has a few pictures of today, and its backfill is done once the count holds.
    const deadline = Date.now() + 120_000;
    for (let count = -1, stable = 0; count < 3 || stable < 3; ) {
      if (Date.now() > deadline) throw new Error(`${CAMERA} delivered no history within 2 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 700));
      const history = await admin.get(`/api/Webcam/GetImageHistory?name=${CAMERA}`);
      const now = history.status === 200 ? (history.json.images as unknown[]).length : 0;
      stable = now === count ? stable + 1 : 0;
      count = now;
    }
    // The booked page: HIGH for a month, with a red bar as its base layer.
    const users = await admin.put('/api/Referer/Set', { url: bookedPage, userEmail: login.json.email });
    const refererUser = (users.json as { id: number; url: string }[]).find((user) => user.url === bookedPage);
    if (!refererUser) throw new Error(`the referer page was not added: ${users.status} ${users.text}`);
    const [camera] = (await admin.get(`/api/Webcam/GetCameras?name=${CAMERA}`)).json as { id: number }[];
    webcamId = (camera as { id: number }).id;
    const booking = await admin.put(`/api/Webcam/SetReferer/referer?webcamId=${webcamId}`, {
      start: isoDay(new Date()),
      end: isoDay(new Date(Date.now() + 30 * 86_400_000)),
      quality: 'HIGH',
      refererUserId: refererUser.id,
    });
    if (booking.status !== 200) throw new Error(`booking answered ${booking.status}: ${booking.text}`);
    const form = new FormData();
    for (const [name, value] of Object.entries({
      url: bookedPage,
      level: 'BASE',
      cameraId: String(webcamId),
      enabled: 'true',
    }))
      form.set(name, value);
    const bar = await sharp({ create: { width: 1920, height: 120, channels: 4, background: '#d00000ff' } })
      .png()
      .toBuffer();
    form.set('file', new Blob([new Uint8Array(bar)], { type: 'image/png' }), 'bar.png');
    const cookies = [...admin.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const layer = await fetch(`${portal.url}/api/Referer/SetLayer/layer`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${login.json.jwtToken}`,
        cookie: cookies,
        'x-xsrf-token': admin.cookies.get('XSRF-TOKEN') ?? '',
      },
      body: form,
    });
    if (!layer.ok) throw new Error(`SetLayer answered ${layer.status}: ${await layer.text()}`);
    // The booking and the layer reach image delivery as events.
    for (;;) {
      const answer = await fetch(`${portal.url}/api/Image/Get/camera/${CAMERA}.jpg`, {
        headers: { referer: `${bookedPage}/` },
        redirect: 'manual',
      });
      await answer.body?.cancel();
      if (answer.headers.get('x-image-layers')) break;
      if (Date.now() > deadline + 60_000) throw new Error('the booked page gets no layers');
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => {
      if (!partner) return resolve();
      partner.server.closeAllConnections();
      partner.server.close(() => resolve());
    });
    await portal?.close();
  });

  it('shows the booked page its level with its layers, the age, the slider, a live picture, the time-lapse and the zoom (custom element)', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    page.setDefaultTimeout(60_000);
    const names = pictureNames(page);
    await page.goto(`${bookedPage}/`);
    const player = page.locator('seecam-player');
    const picture = player.locator('img').first();
    await expect
      .poll(() => names.find((name) => /-HIGH-[0-9a-f]{12}-p[0-9a-f]{12}-[0-9a-f]{12}\./.test(name)))
      .toBeTruthy();
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1920);
    // The page's CSS stops at the shadow root, and the player's stays inside it.
    expect(await picture.evaluate((img) => getComputedStyle(img).borderTopWidth)).toBe('0px');
    expect(await player.locator('.p').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Abo' }).evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(
      'rgb(0, 255, 0)',
    );
    // The red bar is drawn into the top of the picture the page got.
    await expect.poll(() => player.getByRole('status').textContent()).toMatch(/^(gerade eben|vor \d+ (Min\.|Std\.))$/);
    await expect.poll(() => player.getByRole('link', { name: 'Seecam', exact: true }).isHidden()).toBe(true);
    expect(await player.getByRole('link', { name: `${CAMERA} auf Seecam` }).getAttribute('href')).toBe(
      `${portal.url}/webcam/${CAMERA}`,
    );
    await page.screenshot({ path: join(ARTIFACTS, 'embed-partner-desktop.png') });

    // The day slider: the day's first picture, by its name.
    const slider = player.getByRole('slider', { name: 'Zeitpunkt' });
    await expect.poll(async () => Number(await slider.getAttribute('max'))).toBeGreaterThanOrEqual(2);
    const history = (await admin.get(`/api/Webcam/GetImageHistory?name=${CAMERA}`)).json as {
      images: { name: string }[];
    };
    const first = history.images[0]?.name as string;
    await slider.evaluate((input: HTMLInputElement) => {
      input.value = '0';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await expect.poll(() => picture.getAttribute('src')).toContain(`/api/Image/Get/camera/${CAMERA}/${first}.jpg`);
    await expect.poll(() => names.some((name) => name.startsWith(`${first}-HIGH-`))).toBe(true);
    // Back to the newest: the player follows live pictures again.
    await slider.evaluate((input: HTMLInputElement) => {
      input.value = input.max;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });

    // A capture: the new picture shows within seconds, without a reload.
    const before = await picture.getAttribute('src');
    let captured: string | undefined;
    while (!captured) {
      const retry = await admin.post(`/api/Jobs/retry?webcamId=${webcamId}`);
      if (retry.status === 200) captured = retry.json.image.name as string;
      else if (retry.status !== 409) throw new Error(`capture answered ${retry.status}: ${retry.text}`);
      else await page.waitForTimeout(1000);
    }
    const capturedAt = Date.now();
    await expect
      .poll(() => picture.getAttribute('src'), { timeout: 15_000 })
      .toContain(`/api/Image/Get/camera/${CAMERA}/${captured}.jpg`);
    expect(await picture.getAttribute('src')).not.toBe(before);
    await expect.poll(() => names.some((name) => name.startsWith(`${captured}-HIGH-`)), { timeout: 15_000 }).toBe(true);
    console.log(`live picture shown ${Date.now() - capturedAt} ms after the capture answered`);

    // The day's time-lapse, at the page's level, from the portal.
    const clip = page.waitForResponse(
      (response) =>
        // With the pass the beacon gave the booked page: a <video> sends only the page's origin.
        response.url().includes(`/api/Image/Timelapse/camera/${CAMERA}/`) &&
        response.url().includes('?pass=') &&
        [200, 206].includes(response.status()),
      { timeout: 120_000 },
    );
    await player.getByRole('button', { name: 'Zeitraffer' }).click();
    await clip;
    await expect
      .poll(() => player.locator('video').evaluate((video: HTMLVideoElement) => video.readyState), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(2);
    await player.getByRole('button', { name: 'Bild' }).click();

    // Full screen and back.
    await player.getByRole('button', { name: 'Vergrössern' }).click();
    await expect.poll(() => player.locator('.p').getAttribute('class')).toContain('full');
    await page.keyboard.press('Escape');
    await expect.poll(() => player.locator('.p').getAttribute('class')).not.toContain('full');

    // Nothing of the portal's was set as a cookie, on the partner's page or for the portal.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(await portalCookies(page)).toEqual([]);
    await page.close();
  });

  it('shows the booked level and layers in the frame form too, on a phone', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    page.setDefaultTimeout(60_000);
    const names = pictureNames(page);
    await page.goto(`${bookedPage}/framed`);
    const player = page.frameLocator('iframe').locator('seecam-player');
    await expect
      .poll(() => names.find((name) => /-HIGH-[0-9a-f]{12}-p[0-9a-f]{12}-[0-9a-f]{12}\./.test(name)))
      .toBeTruthy();
    await expect.poll(() => player.getByRole('status').textContent()).toMatch(/^(gerade eben|vor \d+ (Min\.|Std\.))$/);
    await expect
      .poll(async () => Number(await player.getByRole('slider').getAttribute('max')))
      .toBeGreaterThanOrEqual(2);
    await expect.poll(() => player.getByRole('link', { name: 'Seecam', exact: true }).isHidden()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'embed-partner-framed-phone.png') });
    expect(await portalCookies(page)).toEqual([]);
    await page.close();

    // Both views of the booked page were counted, nothing of the visitor kept.
    const views = await admin.get(`/api/Image/EmbedViews?camera=${CAMERA}&page=${encodeURIComponent(bookedPage)}`);
    expect(views.status).toBe(200);
    expect(views.json.days[0]).toMatchObject({ day: isoDay(new Date()) });
    expect(views.json.days[0].views).toBeGreaterThanOrEqual(2);
  });

  for (const form of ['', 'framed'] as const) {
    it(`shows a page without a booking the public level and the credit (${form || 'custom element'})`, async () => {
      const page = await browser.newPage({ viewport: DESKTOP });
      page.setDefaultTimeout(60_000);
      const names = pictureNames(page);
      await page.goto(`${partner.url}/other/${form}`);
      const player = form ? page.frameLocator('iframe').locator('seecam-player') : page.locator('seecam-player');
      await expect.poll(() => names.length).toBeGreaterThan(0);
      await expect.poll(() => player.getByRole('link', { name: 'Seecam', exact: true }).isVisible()).toBe(true);
      expect(names.every((name) => /^\d{12}-POOR-[0-9a-f]{12}\.(jpg|avif|webp)$/.test(name))).toBe(true);
      await page.close();
    });
  }
});
