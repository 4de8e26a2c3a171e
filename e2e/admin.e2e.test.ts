import AxeBuilder from '@axe-core/playwright';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { announceUser, hashPassword } from '@lakecams/svc-identity/testing';
import { DEMO_CAMERAS } from '@lakecams/svc-webcam/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '../scripts/portal.ts';
import {
  DESKTOP,
  closePagesAfterEachTest,
  launchChromium,
  logIn,
  openPage,
  openSignedIn,
  PHONE,
  mainHeading,
} from './browser.ts';
import { ARTIFACTS, startTestPortal } from './embedded-portal.ts';

/** A PNG of one colour (RGBA), small enough to build by hand. */
function solidPng(width: number, height: number, [r, g, b, a]: [number, number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bit, RGBA
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b, a]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const REFERER_USER = { username: 'partnerhof', email: 'partnerhof@example.ch', password: 'Seeblick2026!' };
/** The referer camera of the layer test: a demo camera, so it has a picture from the start. */
const SETUP_CAMERA = DEMO_CAMERAS[0]?.name as string;
const NEW_CAMERA = 'Testkamera-Kempraten';

describe('administration screens (Chromium)', () => {
  let portal: RunningPortal;
  let browser: Browser;
  closePagesAfterEachTest(() => browser);
  /**
   * The referer user's page, on a partner site of another origin (127.0.0.2): the configure page previews its
   * picture, and the page itself holds the bare `<img>` a partner pastes, as the browser loads it from there.
   */
  let partnerUrl = '';
  let partnerSite: Server | undefined;
  const errors: string[] = [];

  beforeAll(async () => {
    // No capture schedules: pictures change only through what the test does.
    portal = await startTestPortal({ demoBackfillMinutes: 0, schedule: false, rateLimitPerMinute: 1000 });
    browser = await launchChromium();
    const bareImg = `<img src="${portal.url}/api/Image/Get/camera/${SETUP_CAMERA}.jpg" alt="Webcam">`;
    partnerSite = createServer((_request, response) => {
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><title>Hotel Seeblick</title>${bareImg}`);
    });
    const site = partnerSite;
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.2', resolve));
    partnerUrl = `http://127.0.0.2:${(site.address() as AddressInfo).port}/seeblick/`;
    // A user who registered earlier (registration itself is the account test's subject).
    const identity = portal.services.identity;
    const passwordHash = await hashPassword(REFERER_USER.password);
    await identity.users.transaction(async (users, trx) => {
      const user = await users.insert({
        userName: REFERER_USER.username,
        email: REFERER_USER.email,
        firstName: 'Paula',
        lastName: 'Partner',
        phoneNumber: '055 111 22 33',
        passwordHash,
        emailConfirmed: true,
      });
      await announceUser(trx, user.id, 'created');
    });
  });

  afterAll(async () => {
    partnerSite?.closeAllConnections();
    await new Promise((resolve) => (partnerSite ? partnerSite.close(resolve) : resolve(undefined)));
    await browser?.close();
    await portal?.close();
  });

  async function open(path: string, viewport = DESKTOP): Promise<Page> {
    // 4xx answers the test provokes are logged by Chromium; the page shows them itself.
    const context = { viewport, locale: 'de-CH' };
    return (await openPage(browser, `${portal.url}${path}`, { context, errors, label: path, ignoreFailedLoads: true }))
      .page;
  }

  async function openAsAdmin(path: string): Promise<Page> {
    const admin = portal.demoAdmin as { username: string; password: string };
    const context = { viewport: DESKTOP, locale: 'de-CH' };
    return (
      await openSignedIn(browser, portal.url, path, admin, { context, errors, label: path, ignoreFailedLoads: true })
    ).page;
  }

  /** Desktop and phone screenshots; with a dialog open only what is on screen, as the dialog covers it. */
  async function screenshots(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
    const options = { fullPage, animations: 'disabled' } as const;
    await page.screenshot({ path: join(ARTIFACTS, `admin-${name}-desktop.png`), ...options });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: join(ARTIFACTS, `admin-${name}-phone.png`), ...options });
    await page.setViewportSize(DESKTOP);
  }

  const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });
  const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

  it('adds a referer user on edit/referers, and refuses the same page twice with the server’s message', async () => {
    const page = await openAsAdmin('/edit/referers');
    await page.getByText('0 Referer').waitFor();
    for (let attempt = 0; attempt < 2; attempt++) {
      await page.getByRole('button', { name: 'Referer hinzufügen' }).click();
      const add = dialog(page, 'Referer hinzufügen');
      // Only users with an email are offered: the admin and the referer user.
      await add
        .getByRole('option', { name: `${REFERER_USER.email} (${REFERER_USER.username})` })
        .waitFor({ state: 'attached' });
      await add.getByLabel('Benutzer').selectOption(REFERER_USER.email);
      await add.getByLabel('URL der Seite').fill(partnerUrl);
      if (attempt === 0) await screenshots(page, 'referer-dialog', { fullPage: false });
      await add.getByRole('button', { name: 'Speichern' }).click();
      if (attempt === 1) {
        await add.getByRole('alert').getByText(`${REFERER_USER.email} hat ${partnerUrl} schon.`).waitFor();
        await add.getByRole('button', { name: 'Abbrechen' }).click();
      }
    }
    await page.getByText('1 Referer').waitFor();
    expect(await row(page, REFERER_USER.email).getByRole('link', { name: partnerUrl }).count()).toBe(1);
    await screenshots(page, 'referers');
    await page.close();
  });

  it('adds, edits, positions, permits, configures, books, uploads a picture for and removes a camera', async () => {
    const page = await openAsAdmin('/edit/webcams');
    await page.getByText(`${DEMO_CAMERAS.length} Webcams`).waitFor();
    await screenshots(page, 'webcams');

    // Add: a taken name is refused with the server's message, then a new one is saved.
    await page.getByRole('button', { name: 'Webcam hinzufügen' }).click();
    const add = dialog(page, 'Webcam hinzufügen');
    await add.getByRole('button', { name: 'Speichern' }).click();
    await add.getByText('Name wird benötigt').waitFor();
    await add.getByLabel('Name', { exact: true }).fill(SETUP_CAMERA);
    await add.getByLabel('Pattern (Bild-URL)').fill('https://kamera.example/kempraten.jpg');
    await add.getByLabel('Distanz (km)').fill('3');
    await add.getByLabel('Blickwinkel (°)').fill('80');
    await add.getByLabel('Intervall (Minuten)').fill('60');
    await add.getByLabel('Typ').selectOption('MOBILE');
    await screenshots(page, 'camera-dialog', { fullPage: false });
    await add.getByRole('button', { name: 'Speichern' }).click();
    await add.getByRole('alert').getByText(`Eine Kamera namens ${SETUP_CAMERA} gibt es schon.`).waitFor();
    await add.getByLabel('Name', { exact: true }).fill(NEW_CAMERA);
    await add.getByRole('button', { name: 'Speichern' }).click();
    await page.getByText(`${DEMO_CAMERAS.length + 1} Webcams`).waitFor();
    expect(await row(page, NEW_CAMERA).locator('td').allTextContents()).toEqual(
      expect.arrayContaining([NEW_CAMERA, '3', '80°', '60 min', 'MOBILE', 'https://kamera.example/kempraten.jpg']),
    );

    // Edit.
    await page.getByRole('button', { name: `Bearbeiten ${NEW_CAMERA}` }).click();
    const edit = dialog(page, `Webcam ${NEW_CAMERA} bearbeiten`);
    expect(await edit.getByLabel('Distanz (km)').inputValue()).toBe('3');
    await edit.getByLabel('Distanz (km)').fill('7.5');
    await edit.getByRole('button', { name: 'Speichern' }).click();
    await expect.poll(() => row(page, NEW_CAMERA).locator('td').nth(1).textContent()).toBe('7.5');

    // Position: starts at 0, Reset goes back, a valid one is saved.
    await page.getByRole('button', { name: `Position ${NEW_CAMERA}` }).click();
    const position = dialog(page, `Position von ${NEW_CAMERA}`);
    expect(await position.getByLabel('Breitengrad (lat)').inputValue()).toBe('0');
    await position.getByLabel('Breitengrad (lat)').fill('47.2402');
    await position.getByLabel('Längengrad (lng)').fill('11.2');
    await position.getByLabel('Blickrichtung (°)').focus();
    await position.getByText('Longitude must be between 5.9 and 10.5').waitFor();
    await screenshots(page, 'position-dialog', { fullPage: false });
    await position.getByRole('button', { name: 'Zurücksetzen' }).click();
    expect(await position.getByLabel('Breitengrad (lat)').inputValue()).toBe('0');
    await position.getByLabel('Breitengrad (lat)').fill('47.2402');
    await position.getByLabel('Längengrad (lng)').fill('8.8205');
    await position.getByLabel('Blickrichtung (°)').fill('200');
    await position.getByRole('button', { name: 'Position speichern' }).click();
    await position.getByText('Die Position ist gespeichert').waitFor();
    await position.getByRole('button', { name: 'Schliessen' }).last().click();

    // Permissions: the referer user gets access; reopening shows it kept.
    await page.getByRole('button', { name: `Berechtigungen ${NEW_CAMERA}` }).click();
    let permissions = dialog(page, `Berechtigungen für ${NEW_CAMERA}`);
    await permissions.getByRole('checkbox', { name: /Paula Partner/ }).check();
    await permissions.getByRole('button', { name: 'Speichern' }).click();
    await permissions.getByText('Die Berechtigungen sind gespeichert.').waitFor();
    await screenshots(page, 'permissions-dialog', { fullPage: false });
    await permissions.getByRole('button', { name: 'Schliessen' }).last().click();
    await page.getByRole('button', { name: `Berechtigungen ${NEW_CAMERA}` }).click();
    permissions = dialog(page, `Berechtigungen für ${NEW_CAMERA}`);
    await permissions.getByText('1 von 2 Benutzern haben Zugriff').waitFor();
    expect(await permissions.getByRole('checkbox', { name: /Paula Partner/ }).isChecked()).toBe(true);
    await permissions.getByRole('button', { name: 'Schliessen' }).last().click();

    // Quality for all other users.
    await page.getByRole('button', { name: `Konfiguration ${NEW_CAMERA}` }).click();
    const configuration = dialog(page, `Qualität für ${NEW_CAMERA}`);
    await configuration.getByText('Noch keine Konfiguration').waitFor();
    await configuration.getByLabel('Qualität', { exact: true }).selectOption('LOW');
    await configuration.getByRole('button', { name: 'Festlegen' }).click();
    await configuration.getByRole('list', { name: 'Konfigurationen' }).getByText('Alle anderen Benutzer').waitFor();
    expect(await configuration.getByRole('listitem').textContent()).toContain('Alle anderen Benutzer: LOW');
    await screenshots(page, 'configuration-dialog', { fullPage: false });
    await configuration.getByRole('button', { name: 'Schliessen' }).last().click();

    // A booking for the referer user: it starts today, POOR; saved, it appears in the list.
    await page.getByRole('button', { name: `Referer ${NEW_CAMERA}` }).click();
    const referers = dialog(page, `Referer-Buchungen für ${NEW_CAMERA}`);
    await referers.getByText('Diese Webcam hat noch keine Buchungen.').waitFor();
    await referers.getByRole('button', { name: 'Buchung hinzufügen' }).click();
    expect(await referers.getByLabel('Qualität', { exact: true }).inputValue()).toBe('POOR');
    const today = await referers.getByLabel('Von').inputValue();
    expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await referers.getByLabel('Referer').selectOption({ label: `${REFERER_USER.email} – ${partnerUrl}` });
    await referers.getByLabel('Qualität', { exact: true }).selectOption('HIGH');
    await screenshots(page, 'booking-dialog', { fullPage: false });
    await referers.getByRole('button', { name: 'Buchung speichern' }).click();
    const bookings = referers.getByRole('list', { name: 'Buchungen' });
    await bookings.getByText(`HIGH, ${REFERER_USER.email} – ${partnerUrl}`).waitFor();
    expect(await bookings.getByRole('listitem').count()).toBe(1);
    await referers.getByRole('button', { name: 'Schliessen' }).last().click();

    // Upload: a red picture becomes the camera's current image.
    await page.getByRole('button', { name: `Bild hochladen ${NEW_CAMERA}` }).click();
    const upload = dialog(page, `Bild für ${NEW_CAMERA} hochladen`);
    await upload.getByLabel('Bilddatei (JPEG, PNG oder WebP)').setInputFiles({
      name: 'kempraten.png',
      mimeType: 'image/png',
      buffer: solidPng(640, 360, [200, 20, 20, 255]),
    });
    await upload.getByRole('button', { name: 'Hochladen' }).click();
    await upload.getByText('Das Bild ist jetzt das aktuelle Bild der Webcam.').waitFor();
    const current = upload.getByRole('img', { name: `Aktuelles Bild von ${NEW_CAMERA}` });
    await expect
      .poll(() => current.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    const [red, green, blue] = await current.evaluate((img: HTMLImageElement) => {
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context = canvas.getContext('2d') as CanvasRenderingContext2D;
      context.drawImage(img, 0, 0);
      return [...context.getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data];
    });
    expect(red).toBeGreaterThan(150);
    expect(green).toBeLessThan(70);
    expect(blue).toBeLessThan(70);
    await screenshots(page, 'upload-dialog', { fullPage: false });
    await upload.getByRole('button', { name: 'Schliessen' }).last().click();

    // View opens the public camera page.
    await page.getByRole('link', { name: `Ansehen ${NEW_CAMERA}` }).click();
    await page.waitForURL(`${portal.url}/webcam/${NEW_CAMERA}`);
    await page.getByRole('heading', { level: 1, name: new RegExp(NEW_CAMERA) }).waitFor();
    await page.goBack();
    await page.waitForURL(`${portal.url}/edit/webcams`);

    // Remove after confirmation.
    await page.getByRole('button', { name: `Entfernen ${NEW_CAMERA}` }).click();
    const remove = dialog(page, `Webcam ${NEW_CAMERA} entfernen`);
    await screenshots(page, 'remove-dialog', { fullPage: false });
    await remove.getByRole('button', { name: 'Entfernen' }).click();
    await page.getByText(`${DEMO_CAMERAS.length} Webcams`).waitFor();
    expect(await row(page, NEW_CAMERA).count()).toBe(0);
    await page.close();
  });

  it('books a demo camera for the referer user', async () => {
    const page = await openAsAdmin('/edit/webcams');
    await page.getByRole('button', { name: `Referer ${SETUP_CAMERA}` }).click();
    const referers = dialog(page, `Referer-Buchungen für ${SETUP_CAMERA}`);
    await referers.getByRole('button', { name: 'Buchung hinzufügen' }).click();
    await referers.getByLabel('Referer').selectOption({ label: `${REFERER_USER.email} – ${partnerUrl}` });
    await referers.getByLabel('Qualität', { exact: true }).selectOption('MEDIUM');
    await referers.getByRole('button', { name: 'Buchung speichern' }).click();
    await referers.getByRole('list', { name: 'Buchungen' }).getByText(`MEDIUM, ${REFERER_USER.email}`).waitFor();
    await page.close();
  });

  it('lets the referer user set up layers and shows them drawn into the embedded picture', async () => {
    const page = await open('/login?returnUrl=%2Fedit%2Freferer%2Fcameras');
    await logIn(page, REFERER_USER);
    await page.waitForURL(`${portal.url}/edit/referer/cameras`);
    const menu = page.getByRole('navigation', { name: 'Hauptmenü' });
    await menu.getByRole('link', { name: 'Kamera-Einrichtung' }).waitFor();
    expect(await menu.locator('a[href="/edit/webcams"]').count()).toBe(0);

    await page.getByLabel('Seite (URL)').selectOption(partnerUrl);
    await expect
      .poll(() => page.getByLabel('Webcam', { exact: true }).locator('option').allTextContents())
      .toContain(SETUP_CAMERA);
    await page.getByLabel('Webcam', { exact: true }).selectOption({ label: SETUP_CAMERA });
    await page.getByText(/\d+ × \d+ Pixel/).waitFor();
    const download = page.getByRole('link', { name: `Bild herunterladen (${SETUP_CAMERA}.jpg)` });
    expect(await download.getAttribute('href')).toBe(`/api/Image/Get/camera/${SETUP_CAMERA}.jpg`);
    const snippet = await page.getByLabel('Einbettungscode').inputValue();
    expect(snippet).toMatch(
      new RegExp(
        `^<img src="${portal.url}/api/Image/Get/camera/${SETUP_CAMERA}\\.jpg" width="\\d+" height="\\d+" alt="Webcam ${SETUP_CAMERA} – Seecam Zürichsee" referrerpolicy="no-referrer-when-downgrade">$`,
      ),
    );
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: portal.url });
    await page.getByRole('button', { name: 'Code kopieren', exact: true }).click();
    await page.getByText('Kopiert.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippet);

    const preview = page.getByRole('img', { name: `Vorschau: ${SETUP_CAMERA} mit Layern` });
    /** A hash of the pixels the preview shows now: the embedded picture as the partner's page gets it. */
    const shown = async () => {
      await expect
        .poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
      return preview.evaluate(async (img: HTMLImageElement) => {
        const canvas = document.createElement('canvas');
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        const context = canvas.getContext('2d') as CanvasRenderingContext2D;
        context.drawImage(img, 0, 0);
        const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
        const digest = await crypto.subtle.digest('SHA-256', pixels);
        return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
      });
    };
    const before = await shown();
    // The preview shows the picture as the partner's page gets it, its layers included.
    await page.getByText(/das Bild, mit Qualität und Layern/).waitFor();
    // Why the referrer policy is in the code, next to it.
    await page.getByText(/lässt den Browser die volle Adresse Ihrer Seite mitsenden/).waitFor();
    await screenshots(page, 'camera-setup');

    const layers: { level: string; color: [number, number, number, number] }[] = [
      { level: 'Basis-Layer', color: [255, 210, 0, 255] },
      { level: 'Zeit-Layer', color: [0, 120, 255, 200] },
      { level: 'Offline-Layer', color: [40, 40, 40, 255] },
    ];
    let last = before;
    for (const [index, layer] of layers.entries()) {
      const group = page.getByRole('region', { name: new RegExp(layer.level) });
      await group.getByText('Keine Layer.').waitFor();
      await group.getByRole('button', { name: `Layer hinzufügen (${layer.level})` }).click();
      const editor = dialog(page, `${layer.level}: neuer Layer`);
      expect(await editor.getByLabel('Cron').inputValue()).toBe('* * * * *');
      expect(await editor.getByLabel('Aktiv').isChecked()).toBe(true);
      expect(await editor.getByRole('button', { name: 'Mit Bild speichern' }).isDisabled()).toBe(true);
      await editor.getByLabel('Cron').fill('alle 5 Minuten');
      await editor.getByLabel('Aktiv').focus();
      await editor.getByText('This is not a cron definition').waitFor();
      await editor.getByLabel('Cron').fill('* * * * *');
      await editor.getByLabel('Bild des Layers').setInputFiles({
        name: `layer-${index}.png`,
        mimeType: 'image/png',
        buffer: solidPng(240, 90, layer.color),
      });
      if (index === 0) await screenshots(page, 'layer-dialog', { fullPage: false });
      await editor.getByRole('button', { name: 'Mit Bild speichern' }).click();
      await group.getByRole('listitem').first().waitFor();
      await expect
        .poll(() =>
          group.getByRole('img', { name: /^Bild von Layer/ }).evaluate((img: HTMLImageElement) => img.naturalWidth),
        )
        .toBe(240);
      if (layer.level === 'Offline-Layer') {
        // Drawn only once the camera stops delivering: the picture stays as it was.
        // (Twice as long as the page waits before it looks at the picture once more.)
        await page.waitForTimeout(3_000);
        expect(await shown()).toBe(last);
      } else {
        await expect.poll(shown, { message: `${layer.level} changes the embedded picture` }).not.toBe(last);
      }
      const after = await shown();
      last = after;
    }
    await screenshots(page, 'camera-setup-layers');

    // The partner's own page, another origin, with the bare <img> pasted without the referrer policy: the browser
    // sends only the origin, the origin's only booking for the camera is meant, with its level and layers.
    const partnerPage = await browser.newPage({ viewport: DESKTOP });
    const entitlements: Promise<{ referer: string | undefined; headers: Record<string, string> }>[] = [];
    partnerPage.on('response', (response) => {
      if (!response.url().startsWith(`${portal.url}/api/Image/Get/camera/`)) return;
      entitlements.push(
        Promise.all([response.request().allHeaders(), response.allHeaders()]).then(([sent, headers]) => ({
          referer: sent.referer,
          headers,
        })),
      );
    });
    await partnerPage.goto(partnerUrl);
    const embedded = partnerPage.getByRole('img', { name: 'Webcam' });
    await expect
      .poll(() => embedded.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    const [entitlement, ...more] = await Promise.all(entitlements);
    expect(more).toEqual([]);
    expect(entitlement?.referer).toBe(`${new URL(partnerUrl).origin}/`);
    expect(entitlement?.headers['x-image-quality']).toBe('MEDIUM; referer booking');
    expect(entitlement?.headers['x-image-layers']).toMatch(/^b\d+\./);
    // The booked level's width, not the public one's.
    expect(await embedded.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(480);
    await partnerPage.close();

    // The time layer disabled without a new image: the picture goes back to base only.
    const time = page.getByRole('region', { name: /Zeit-Layer/ });
    await time.getByRole('button', { name: /^Layer \d+ bearbeiten$/ }).click();
    const editor = dialog(page, /^Zeit-Layer: Layer \d+ bearbeiten$/);
    await editor.getByLabel('Aktiv').uncheck();
    await editor.getByRole('button', { name: 'Speichern, Bild behalten' }).click();
    await time.getByText('Inaktiv').waitFor();
    await expect.poll(shown).not.toBe(last);

    // Deleting the base layer and the others brings the plain picture back.
    for (const level of ['Basis-Layer', 'Zeit-Layer', 'Offline-Layer']) {
      const group = page.getByRole('region', { name: new RegExp(level) });
      await group.getByRole('button', { name: /^Layer \d+ löschen$/ }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Löschen' }).click();
      await group.getByText('Keine Layer.').waitFor();
    }
    await expect.poll(shown).toBe(before);
    await page.close();
  });

  it('offers an administrator every camera in camera setup, also those nobody booked (product.md §6.4)', async () => {
    const page = await openAsAdmin('/edit/referer/cameras');
    await page.getByLabel('Seite (URL)').selectOption(partnerUrl);
    // Only SETUP_CAMERA is booked for the partner's page; the admin gets all demo cameras for it.
    await expect
      .poll(() => page.getByLabel('Webcam', { exact: true }).locator('option').allTextContents())
      .toEqual(expect.arrayContaining(DEMO_CAMERAS.map((camera) => camera.name)));
    const unbooked = DEMO_CAMERAS.find((camera) => camera.name !== SETUP_CAMERA)?.name as string;
    await page.getByLabel('Webcam', { exact: true }).selectOption({ label: unbooked });
    await page.getByRole('heading', { name: `Layer für ${unbooked}` }).waitFor();
    await page.getByText(/\d+ × \d+ Pixel/).waitFor();
    await screenshots(page, 'camera-setup-admin-unbooked');
    await page.close();
  });

  it('edits the news, which the banner shows from the next page on; empty hides it', async () => {
    const page = await openAsAdmin('/edit/webcams');
    const text = page.getByLabel('Text des Banners');
    const banner = page.getByRole('complementary', { name: 'Neuigkeiten' });
    await expect.poll(() => text.inputValue()).toBe(await banner.textContent().catch(() => ''));
    await text.fill('Seenachtfest Rapperswil: Kameras am Samstag bis 2 Uhr live.');
    await page.getByRole('button', { name: 'Neuigkeiten speichern' }).click();
    await page.getByText('Gespeichert. Besucher sehen den neuen Text').waitFor();
    await page.reload();
    await banner.getByText('Seenachtfest Rapperswil: Kameras am Samstag bis 2 Uhr live.').waitFor();
    await screenshots(page, 'news');

    await text.fill('');
    await page.getByRole('button', { name: 'Neuigkeiten speichern' }).click();
    await page.getByText('Gespeichert. Das Banner ist ausgeblendet.').waitFor();
    await page.reload();
    await text.waitFor();
    await expect.poll(() => banner.count()).toBe(0);
    await page.close();
  });

  it("lists every user's redeemed codes with their owner at edit/codes, and only the own ones on /user", async () => {
    const admin = await openAsAdmin('/edit/codes');
    await admin.getByText('Noch keine Codes eingelöst.').waitFor();
    await admin.getByRole('button', { name: 'Codes erstellen' }).click();
    await dialog(admin, 'Codes erstellen').getByRole('button', { name: 'Erstellen' }).click();
    const created = dialog(admin, 'Codes erstellt');
    const code = (await created.getByRole('listitem').textContent())?.trim() ?? '';
    await screenshots(admin, 'codes-created', { fullPage: false });
    await created.getByRole('button', { name: 'Fertig' }).click();

    // The referer user redeems it on the own profile.
    const partner = await open('/login?returnUrl=%2Fuser');
    await logIn(partner, REFERER_USER);
    await partner.waitForURL(`${portal.url}/user`);
    await partner.getByLabel('Code', { exact: true }).fill(code);
    await partner.getByRole('button', { name: 'Einlösen' }).click();
    await partner.getByRole('region', { name: 'Eingelöste Codes' }).getByText(code).waitFor();
    await partner.close();

    // The admin's own profile shows none of it; the admin list names the owner.
    await admin.goto(`${portal.url}/user`);
    await admin.getByText('Sie haben noch keinen Code eingelöst.').waitFor();
    await admin.getByRole('main').getByRole('link', { name: 'Codes verwalten' }).click();
    await admin.waitForURL(`${portal.url}/edit/codes`);
    await admin.getByText('1 eingelöster Code').waitFor();
    expect(await row(admin, code).locator('td').allTextContents()).toEqual(
      expect.arrayContaining([code, 'Premium', `${REFERER_USER.username}${REFERER_USER.email}`]),
    );
    await screenshots(admin, 'codes');
    await admin.getByRole('button', { name: `Entfernen ${code} von ${REFERER_USER.username}` }).click();
    await dialog(admin, 'Code entfernen').getByRole('button', { name: 'Entfernen' }).click();
    await admin.getByText('Noch keine Codes eingelöst.').waitFor();
    await admin.close();
  });

  it('has no serious or critical accessibility violations on the admin screens and their dialogs', async () => {
    const found: string[] = [];
    const check = async (page: Page, what: string) => {
      const result = await new AxeBuilder({ page }).analyze();
      for (const violation of result.violations) {
        if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
        found.push(
          `${what}: ${violation.id} (${violation.impact}) ${violation.nodes.map((n) => n.target.join(' ')).join(', ')}`,
        );
      }
    };
    const webcams = await openAsAdmin('/edit/webcams');
    await webcams.getByRole('table').waitFor();
    await check(webcams, '/edit/webcams');
    for (const action of ['Bearbeiten', 'Referer', 'Konfiguration', 'Berechtigungen', 'Position', 'Bild hochladen']) {
      await webcams.getByRole('button', { name: `${action} ${SETUP_CAMERA}` }).click();
      const open = webcams.getByRole('dialog');
      await open.getByRole('button').first().waitFor();
      await webcams.waitForLoadState('networkidle').catch(() => {});
      await check(webcams, `/edit/webcams ${action} dialog`);
      await open.getByRole('button', { name: 'Schliessen' }).last().click();
      await expect.poll(() => webcams.getByRole('dialog').count()).toBe(0);
    }
    for (const path of ['/edit/referers', '/edit/referer/cameras', '/edit/codes']) {
      await webcams.goto(`${portal.url}${path}`);
      await mainHeading(webcams).waitFor();
      await webcams.waitForLoadState('networkidle').catch(() => {});
      await check(webcams, path);
    }
    await webcams.close();
    expect(found).toEqual([]);
  });

  it('sends visitors to the login and tells signed-in users without rights', async () => {
    const page = await open('/edit/webcams');
    await page.waitForURL(`${portal.url}/login?returnUrl=%2Fedit%2Fwebcams`);
    await logIn(page, REFERER_USER);
    await page.waitForURL(`${portal.url}/edit/webcams`);
    await page.getByText('Diese Seite ist Administratoren vorbehalten.').waitFor();
    await page.close();
  });

  it('loaded the admin screens without script errors', () => {
    expect(errors).toEqual([]);
  });
});
