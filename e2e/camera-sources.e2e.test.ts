import AxeBuilder from '@axe-core/playwright';
import type { Webcam } from '@lakecams/contracts';
import { Client } from 'basic-ftp';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '../scripts/portal.ts';
import { startDigestCamera } from '../svc-imaging/test/camera-servers.ts';
import { closePagesAfterEachTest, DESKTOP, freePort, launchChromium, openSignedIn, PHONE } from './browser.ts';
import { ARTIFACTS, startTestPortal } from './embedded-portal.ts';
import { antiForgeryOf, signedInApi } from './portal-api.ts';

const run = promisify(execFile);

/** A picture of one colour, as a camera would send it. */
const solidJpeg = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .jpeg()
    .toBuffer();

const DIGEST_CAMERA = 'Hafen-Digest';
const FTP_CAMERA = 'Seeufer-FTP';
const PUSH_CAMERA = 'Bootshaus-Push';
/** The Digest camera's login, and a wrong password: words that occur nowhere else. */
const CAMERA_LOGIN = { username: 'kamera', password: 'Hafen-Digest-Pw-4711' };
const WRONG_PASSWORD = 'Falsch-Pw-0815';

/**
 * docs/product.md §6.1, "Bildquelle": an operator connects real cameras from the admin's dialog: one fetched
 * behind Digest, one that uploads by FTP(S), one that uploads by HTTP.
 */
describe('connecting a camera in the "Bildquelle" dialog (Chromium)', () => {
  let portal: RunningPortal;
  let browser: Browser;
  let ftpPort: number;
  let camera: Awaited<ReturnType<typeof startDigestCamera>>;
  let admin: { username: string; password: string };
  let api: Awaited<ReturnType<typeof signedInApi>>;
  const errors: string[] = [];
  /** Every line the portal logged, at debug level, and every secret the test saw: none may be in a line. */
  const logLines: string[] = [];
  const secrets: string[] = [];
  closePagesAfterEachTest(() => browser);

  beforeAll(async () => {
    ftpPort = await freePort();
    const passive = await freePort();
    // No schedules: a picture arrives only through what the test does. Passive FTP on a port of its own.
    portal = await startTestPortal({
      demoBackfillMinutes: 0,
      schedule: false,
      rateLimitPerMinute: 1000,
      ftp: { port: ftpPort },
      logLevel: 'debug',
      logDestination: { write: (line: string) => void logLines.push(line) },
      environment: { ...process.env, FTP_PASSIVE_PORTS: `${passive}-${passive}` },
    });
    if (!portal.demoAdmin) throw new Error('The portal created no demo admin');
    admin = portal.demoAdmin;
    api = await signedInApi(portal.url, admin);
    camera = await startDigestCamera(await solidJpeg(1280, 720, '#1f8a4c'), CAMERA_LOGIN);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await camera?.close();
    await portal?.close();
  });

  /** Adds a camera through the API, as the "Webcam hinzufügen" dialog does, and waits until svc-imaging knows it. */
  async function addCamera(name: string, pattern: string): Promise<number> {
    await api.post('/api/Webcam/Set', {
      id: 0,
      name,
      pattern,
      distance: 3,
      angle: 90,
      intervalMin: 10,
      webcamType: 'STATIC',
    } satisfies Webcam);
    const cameras = (await (
      await fetch(`${portal.url}/api/Webcam/GetCameras`, { headers: { authorization: `Bearer ${api.user.jwtToken}` } })
    ).json()) as Webcam[];
    const id = cameras.find((webcam) => webcam.name === name)?.id;
    if (!id) throw new Error(`${name} was not added`);
    await expect
      .poll(async () => {
        const response = await fetch(`${portal.url}/api/Image/Source?webcamId=${id}`, {
          headers: { authorization: `Bearer ${api.user.jwtToken}` },
        });
        await response.body?.cancel();
        return response.status;
      })
      .toBe(200);
    return id;
  }

  async function openAsAdmin(path: string): Promise<Page> {
    const context = { viewport: DESKTOP, locale: 'de-CH' };
    return (
      await openSignedIn(browser, portal.url, path, admin, { context, errors, label: path, ignoreFailedLoads: true })
    ).page;
  }

  async function openSourceDialog(page: Page, name: string): Promise<Locator> {
    await page.getByRole('button', { name: `Bildquelle ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Bildquelle für ${name}` });
    await dialog.getByRole('group', { name: 'Wie liefert die Kamera ihre Bilder?' }).waitFor();
    return dialog;
  }

  /**
   * The dialog on desktop and phone: what is on screen with `part` scrolled into view, and the whole dialog on a
   * screen tall enough for it.
   */
  async function screenshots(page: Page, name: string, part: Locator): Promise<void> {
    const body = page.getByRole('dialog').first().locator('.modal-dialog__body');
    for (const [viewport, size] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(size);
      await part.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `camera-source-${name}-${viewport}.png`), animations: 'disabled' });
      // Nothing of the dialog reaches past the screen's edge.
      const overflow = await body.evaluate((element) => element.scrollWidth - element.clientWidth);
      expect(overflow, `${name} on ${viewport}`).toBeLessThanOrEqual(0);
      const height = await body.evaluate((element) => element.scrollHeight);
      await page.setViewportSize({ width: size.width, height: Math.max(size.height, height + 120) });
      await page.screenshot({
        path: join(ARTIFACTS, `camera-source-${name}-${viewport}-whole.png`),
        animations: 'disabled',
      });
    }
    await page.setViewportSize(DESKTOP);
  }

  async function expectAccessible(page: Page, what: string): Promise<void> {
    const result = await new AxeBuilder({ page }).include('dialog').analyze();
    const serious = result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) => `${what}: ${violation.id} ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      );
    expect(serious).toEqual([]);
  }

  /** The middle pixel of the camera's picture on its public page. */
  async function pictureOnCameraPage(page: Page, name: string): Promise<number[]> {
    await page.goto(`${portal.url}/webcam/${name}`);
    const picture = page.getByRole('img', { name: new RegExp(`^Webcam ${name}`) });
    await picture.waitFor();
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    return picture.evaluate((img: HTMLImageElement) => {
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context = canvas.getContext('2d') as CanvasRenderingContext2D;
      context.drawImage(img, 0, 0);
      return [...context.getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data].slice(0, 3);
    });
  }

  const focusInside = (dialog: Locator) => dialog.evaluate((element) => element.contains(document.activeElement));

  it('fetches a camera behind Digest with the login entered: test, save, capture, picture on its page', async () => {
    const id = await addCamera(DIGEST_CAMERA, camera.url());
    const page = await openAsAdmin('/edit/webcams');
    const dialog = await openSourceDialog(page, DIGEST_CAMERA);
    expect(await dialog.getByRole('radio', { name: 'Bild abrufen (HTTP/HTTPS)' }).isChecked()).toBe(true);
    expect(await dialog.getByLabel('Adresse des Bildes').inputValue()).toBe(camera.url());

    // A wrong password: the camera's refusal, with the scheme it asked for.
    await dialog.getByLabel('Benutzer').fill('kamera');
    await dialog.getByLabel('Passwort', { exact: true }).fill(WRONG_PASSWORD);
    await dialog.getByRole('button', { name: 'Verbindung testen' }).click();
    await dialog.getByText('Die Kamera lehnt die Anmeldung ab.').waitFor();
    expect(await dialog.locator('.source-test small').textContent()).toContain('Digest');
    expect(await dialog.locator('.source-test').textContent()).toMatch(/Dauer: (\d\.\d|unter 0\.1)\ss/);
    await screenshots(page, 'http-refused', dialog.locator('.source-test'));

    await dialog.getByLabel('Passwort', { exact: true }).fill(CAMERA_LOGIN.password);
    secrets.push(CAMERA_LOGIN.password, WRONG_PASSWORD);
    await dialog.getByRole('button', { name: 'Verbindung testen' }).click();
    const preview = dialog.getByRole('img', { name: `Testbild von ${DIGEST_CAMERA}` });
    await preview.waitFor();
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(480);
    expect(await dialog.locator('.source-test figcaption').textContent()).toMatch(
      /^1280 × 720\spx, \d+\sKB, in (\d\.\d|unter 0\.1)\ss$/,
    );
    expect(await focusInside(dialog)).toBe(true);
    await expectAccessible(page, 'http with test picture');
    await screenshots(page, 'http', preview);

    // Saved, the dialog captures at once (the schedule is off here) and leads to the picture.
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await dialog.getByText('Gespeichert: Bild abrufen (HTTP/HTTPS).').waitFor();
    expect(await dialog.getByLabel('Passwort', { exact: true }).getAttribute('placeholder')).toBe('gesetzt');
    await dialog.getByText('Erstes Bild aufgenommen.', { exact: false }).waitFor();
    await screenshots(page, 'http-captured', dialog.getByRole('link', { name: `Bild von ${DIGEST_CAMERA} ansehen` }));
    const jobs = await api.get<{ cameras: { webcamId: number; lastRun: { status: string } | null }[] }>(
      '/api/Jobs/state',
    );
    expect(jobs.cameras.find((camera) => camera.webcamId === id)?.lastRun?.status).toBe('done');
    const [red, green, blue] = await pictureOnCameraPage(page, DIGEST_CAMERA);
    expect(green).toBeGreaterThan(110);
    expect(red).toBeLessThan(70);
    expect(blue).toBeLessThan(110);
    await page.close();
  });

  it('shows the stream choice with its transport', async () => {
    const page = await openAsAdmin('/edit/webcams');
    const dialog = await openSourceDialog(page, DIGEST_CAMERA);
    await dialog.getByText('Stream (RTSP, HLS, MJPEG)').click();
    expect(await dialog.getByRole('radio', { name: 'Stream (RTSP, HLS, MJPEG)' }).isChecked()).toBe(true);
    await dialog.getByLabel('Transport').selectOption('udp');
    await dialog.getByText(/Noch nicht gespeichert/).waitFor();
    await expectAccessible(page, 'stream');
    await screenshots(page, 'stream', dialog.getByLabel('Transport'));
    await page.close();
  });

  it('connects a camera that uploads by FTPS: password once, upload, picture on its page and in the dialog', async () => {
    await addCamera(FTP_CAMERA, 'https://example.invalid/seeufer.jpg');
    const page = await openAsAdmin('/edit/webcams');
    let dialog = await openSourceDialog(page, FTP_CAMERA);
    await dialog.getByText('Kamera lädt per FTP/FTPS hoch').click();
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await dialog.getByText('Gespeichert: Kamera lädt per FTP/FTPS hoch.').waitFor();
    expect(await dialog.getByText('Noch kein Bild empfangen').isVisible()).toBe(true);

    await dialog.getByRole('button', { name: 'Passwort erzeugen' }).click();
    await dialog.getByText('Neues Passwort, nur jetzt sichtbar: bitte gleich in der Kamera eintragen.').waitFor();
    const password = (await dialog.locator('.source-secret code').textContent()) ?? '';
    expect(password.length).toBeGreaterThan(20);
    secrets.push(password);
    // The portal's own host name, as the browser reached it.
    const host = new URL(portal.url).hostname;
    expect(await focusInside(dialog)).toBe(true);
    const settings = Object.fromEntries(
      await dialog
        .getByLabel('FTP-Einstellungen')
        .locator('div')
        .evaluateAll((rows) =>
          rows.map((row) => [row.querySelector('dt')?.textContent, row.querySelector('dd')?.textContent]),
        ),
    );
    expect(settings).toEqual({
      Server: host,
      Port: String(ftpPort),
      Benutzer: FTP_CAMERA,
      Passwort: password,
      'Passiver Modus': 'ja',
      'Explizites FTP über TLS': 'ja (empfohlen)',
    });
    expect(await dialog.locator('code').allTextContents()).toContain(
      `curl -T bild.jpg --ftp-ssl ftp://${FTP_CAMERA}:${password}@${host}:${ftpPort}/`,
    );
    await expectAccessible(page, 'ftp with a new password');
    await screenshots(page, 'ftp', dialog.locator('.source-secret'));

    // The camera: explicit FTPS with the account from the dialog (its certificate is the portal's own).
    const client = new Client(15_000);
    try {
      await client.access({
        host: settings.Server,
        port: Number(settings.Port),
        user: settings.Benutzer,
        password,
        secure: true,
        secureOptions: { rejectUnauthorized: false },
      });
      await client.uploadFrom(Readable.from([await solidJpeg(1600, 900, '#c0392b')]), 'bild.jpg');
    } finally {
      client.close();
    }
    await dialog.getByRole('button', { name: 'Aktualisieren' }).click();
    await dialog.getByText(/^Letztes Bild: \d\d\.\d\d\.\d{4}, \d\d:\d\d Uhr per FTP$/).waitFor();
    await screenshots(page, 'ftp-uploaded', dialog.locator('.source-last-upload'));

    // Opened again: the password is not shown any more; a new one is asked for first.
    await dialog.getByRole('button', { name: 'Schliessen' }).last().click();
    dialog = await openSourceDialog(page, FTP_CAMERA);
    await dialog.getByText('Ein Passwort ist gesetzt. Es wurde nur beim Erzeugen angezeigt.').waitFor();
    expect(await dialog.textContent()).not.toContain(password);
    const renew = dialog.getByRole('button', { name: 'Neues Passwort erzeugen' });
    await renew.click();
    const question = page.getByRole('dialog', { name: `Neues FTP-Passwort für ${FTP_CAMERA}` });
    await question.getByText(/Das bisherige Passwort gilt danach nicht mehr/).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => question.count()).toBe(0);
    await dialog.waitFor();
    await expect.poll(() => renew.evaluate((button) => button === document.activeElement)).toBe(true);
    await dialog.getByRole('button', { name: 'Schliessen' }).last().click();

    const [red, green, blue] = await pictureOnCameraPage(page, FTP_CAMERA);
    expect(red).toBeGreaterThan(150);
    expect(green).toBeLessThan(90);
    expect(blue).toBeLessThan(90);
    await page.close();
  });

  it('connects a camera that uploads by HTTP: the curl examples as shown work with the secret made', async () => {
    await addCamera(PUSH_CAMERA, 'https://example.invalid/bootshaus.jpg');
    const page = await openAsAdmin('/edit/webcams');
    const dialog = await openSourceDialog(page, PUSH_CAMERA);
    await dialog.getByText('Kamera lädt per HTTP hoch').click();
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await dialog.getByText('Gespeichert: Kamera lädt per HTTP hoch.').waitFor();
    await dialog.getByRole('button', { name: 'Geheimnis erzeugen' }).click();
    await dialog.getByText('Neues Geheimnis, nur jetzt sichtbar: bitte gleich in der Kamera eintragen.').waitFor();
    const secret = (await dialog.locator('.source-secret code').textContent()) ?? '';
    secrets.push(secret);
    const url = `${portal.url}/api/Image/Push/camera/${PUSH_CAMERA}.jpg`;
    const codes = await dialog.locator('code').allTextContents();
    expect(codes).toContain(url);
    const bearer = `curl -T bild.jpg -H "Content-Type: image/jpeg" -H "Authorization: Bearer ${secret}" ${url}`;
    const form = `curl -F file=@bild.jpg -u ${PUSH_CAMERA}:${secret} ${url}`;
    expect(codes).toContain(bearer);
    expect(codes).toContain(form);
    await expectAccessible(page, 'push with a new secret');
    await screenshots(page, 'push', dialog.locator('.source-secret'));

    // Each example, run as an operator would paste it; a camera has one picture a minute, so the second may wait.
    const folder = await mkdtemp(join(tmpdir(), 'lakecams-push-'));
    try {
      await writeFile(join(folder, 'bild.jpg'), await solidJpeg(800, 450, '#2255cc'));
      const sent = await run('sh', ['-c', `${bearer} --fail-with-body -sS`], { cwd: folder });
      expect(sent.stdout).toMatch(/"name":"\d{12}"/);
      const again = await run('sh', ['-c', `${form} -sS -o /dev/null -w '%{http_code}'`], { cwd: folder });
      expect(['201', '409']).toContain(again.stdout);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    await dialog.getByRole('button', { name: 'Aktualisieren' }).click();
    await dialog.getByText(/^Letztes Bild: \d\d\.\d\d\.\d{4}, \d\d:\d\d Uhr per HTTP$/).waitFor();
    await dialog.getByRole('button', { name: 'Schliessen' }).last().click();

    const [red, green, blue] = await pictureOnCameraPage(page, PUSH_CAMERA);
    expect(blue).toBeGreaterThan(150);
    expect(red).toBeLessThan(90);
    expect(green).toBeLessThan(130);
    await page.close();
  });

  it('refuses the source routes to a visitor', async () => {
    const headers = await antiForgeryOf(portal.url);
    const answer = await fetch(`${portal.url}/api/Image/Source?webcamId=1`, { headers });
    await answer.body?.cancel();
    expect(answer.status).toBe(401);
  });

  it('let no password or secret out: not in a log line, a job record, a health record or a source', async () => {
    expect(secrets.length).toBe(4);
    // The grep can fail: the lines hold the run's logins and uploads.
    expect(logLines.some((line) => line.includes('"FTP login"') && line.includes(FTP_CAMERA))).toBe(true);
    expect(logLines.some((line) => line.includes('"FTP picture received"'))).toBe(true);
    const answers = [
      JSON.stringify(await api.get('/api/Jobs/state')),
      JSON.stringify(await api.get('/api/Jobs/health')),
      ...(await Promise.all(
        [DIGEST_CAMERA, FTP_CAMERA, PUSH_CAMERA].map(async (name) => {
          const [webcam] = await api.get<Webcam[]>(`/api/Webcam/GetCameras?name=${name}`);
          return JSON.stringify(await api.get(`/api/Image/Source?webcamId=${webcam?.id}`));
        }),
      )),
    ];
    for (const secret of secrets) {
      expect(logLines.filter((line) => line.includes(secret))).toEqual([]);
      expect(answers.filter((answer) => answer.includes(secret))).toEqual([]);
    }
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
