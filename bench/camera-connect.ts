import { Client } from 'basic-ftp';
import { mkdir, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { DESKTOP, freePort, launchChromium, logIn } from '../e2e/browser.ts';
import { startPortal } from '../scripts/portal.ts';
import { startBasicCamera, startDigestCamera, startRtspCamera } from '../svc-imaging/test/camera-servers.ts';
import { ensureResultsDir, log, median, REPEATS, type ResultRow, row, verdict } from './harness.ts';

/**
 * An administrator connects a camera of each kind through the admin screens only, from /edit/webcams to its
 * first picture on the camera's page: "Webcam hinzufügen", then "Bildquelle" (login, "Verbindung testen",
 * "Speichern"; for a camera that uploads, its account and the camera's first upload). Measured twice: the
 * browser's walk as fast as the portal answers, and at a person's pace, adding the Keystroke-Level Model's
 * times for each step the walk takes (Card, Moran & Newell: 1.35 s to decide, 1.1 s to point, 0.2 s to click,
 * 0.28 s a key). Baseline in the same run: a camera serving a public JPEG, added with the camera dialog alone.
 */

const KLM = { decide: 1.35, point: 1.1, click: 0.2, key: 0.28 };
const TARGET_S = 120;

/** The steps a person takes, counted as the walk does them. */
class Pace {
  seconds = 0;
  clicks = 0;
  keys = 0;
  click() {
    this.clicks++;
    this.seconds += KLM.decide + KLM.point + KLM.click;
  }
  type(text: string) {
    this.click();
    this.keys += text.length;
    this.seconds += text.length * KLM.key;
  }
  /** Copying a shown value and pasting it elsewhere (the camera's own settings page). */
  copy() {
    this.click();
    this.click();
    this.keys += 2;
    this.seconds += 2 * KLM.key;
  }
}

const LOGIN = { username: 'kamera', password: 'Seeblick-4711' };

interface Kind {
  label: string;
  /** What the admin types as the camera's address in "Webcam hinzufügen". */
  address: () => string;
  /** The choice in "Bildquelle"; none: the camera dialog alone (the baseline). */
  source?:
    | 'Bild abrufen (HTTP/HTTPS)'
    | 'Stream (RTSP, HLS, MJPEG)'
    | 'Kamera lädt per FTP/FTPS hoch'
    | 'Kamera lädt per HTTP hoch';
  login?: boolean;
}

export async function cameraConnect(): Promise<ResultRow[]> {
  const dir = await ensureResultsDir('camera-connect');
  const dataDir = join(dir, 'portal');
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  const picture = await sharp({ create: { width: 1920, height: 1080, channels: 3, background: '#2a6f97' } })
    .jpeg()
    .toBuffer();
  const publicCamera = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'image/jpeg' });
    response.end(picture);
  });
  await new Promise<void>((resolve) => publicCamera.listen(0, '127.0.0.1', resolve));
  const publicUrl = `http://127.0.0.1:${(publicCamera.address() as { port: number }).port}/bild.jpg`;
  const basic = await startBasicCamera(picture, LOGIN);
  const digest = await startDigestCamera(picture, LOGIN);
  const rtsp = await startRtspCamera();
  const ftpPort = await freePort();
  const passive = await freePort();
  // As `npm start` runs it (schedules on, FTPS on its own certificate), without demo history to render.
  const portal = await startPortal({
    port: 0,
    logLevel: 'warn',
    dataDir,
    embeddedPostgresPort: await freePort(),
    demoBackfillMinutes: 0,
    rateLimitPerMinute: 1000,
    ftp: { port: ftpPort },
    environment: { ...process.env, FTP_PASSIVE_PORTS: `${passive}-${passive}` },
  });
  const browser = await launchChromium();
  const kinds: Kind[] = [
    { label: 'public JPEG, camera dialog only', address: () => publicUrl },
    { label: 'HTTP, Basic login', address: () => basic.url, source: 'Bild abrufen (HTTP/HTTPS)', login: true },
    { label: 'HTTP, Digest login', address: () => digest.url(), source: 'Bild abrufen (HTTP/HTTPS)', login: true },
    { label: 'RTSP stream', address: () => rtsp.url, source: 'Stream (RTSP, HLS, MJPEG)' },
    { label: 'FTP push (FTPS)', address: () => 'ftp://kamera.local/', source: 'Kamera lädt per FTP/FTPS hoch' },
    { label: 'HTTP push', address: () => 'http://kamera.local/', source: 'Kamera lädt per HTTP hoch' },
  ];
  const admin = portal.demoAdmin;
  if (!admin) throw new Error('the portal made no demo administrator');
  const results = new Map<string, { machine: number[]; human: number[]; steps: string }>();
  try {
    for (let round = 0; round < REPEATS; round++) {
      for (const [index, kind] of kinds.entries()) {
        const page = await browser.newPage({ viewport: DESKTOP, locale: 'de-CH' });
        try {
          const name = `Kamera-${round}-${index}`;
          const pace = new Pace();
          const started = performance.now();
          await walk(page, portal.url, admin, name, kind, pace, { ftpPort, picture });
          const machine = (performance.now() - started) / 1000;
          const entry = results.get(kind.label) ?? { machine: [], human: [], steps: '' };
          entry.steps = `${pace.clicks} clicks, ${pace.keys} keys`;
          entry.machine.push(machine);
          entry.human.push(machine + pace.seconds);
          results.set(kind.label, entry);
          log(
            `${kind.label}: ${machine.toFixed(1)} s walked, ${(machine + pace.seconds).toFixed(0)} s at a person's pace`,
          );
        } finally {
          await page.close();
        }
      }
    }
  } finally {
    await browser.close();
    await portal.close();
    await Promise.all([basic.close(), digest.close(), rtsp.close()]);
    await new Promise((resolve) => publicCamera.close(resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
  const [baselineLabel] = kinds.map((kind) => kind.label);
  const baseline = results.get(baselineLabel ?? '') ?? { machine: [], human: [], steps: '' };
  return kinds.slice(1).flatMap((kind) => {
    const measured = results.get(kind.label) ?? { machine: [], human: [], steps: '' };
    const human = median(measured.human);
    return [
      row({
        benchmark: 'camera-connect',
        case: kind.label,
        metric: 'to first picture, browser walk',
        unit: 's',
        portal: median(measured.machine),
        baseline: median(baseline.machine),
        baselineLabel: 'public JPEG',
      }),
      row({
        benchmark: 'camera-connect',
        case: kind.label,
        metric: "to first picture, a person's pace",
        unit: 's',
        portal: human,
        baseline: median(baseline.human),
        baselineLabel: 'public JPEG',
        target: `< ${TARGET_S} s`,
        verdict: verdict(human < TARGET_S),
        note: `${measured.steps}; baseline ${baseline.steps}`,
      }),
    ];
  });
}

async function walk(
  page: Page,
  url: string,
  admin: { username: string; password: string },
  name: string,
  kind: Kind,
  pace: Pace,
  camera: { ftpPort: number; picture: Buffer },
): Promise<void> {
  const fill = async (field: Locator, text: string) => {
    pace.type(text);
    await field.fill(text);
  };
  const click = async (target: Locator) => {
    pace.click();
    await target.click();
  };
  await page.goto(`${url}/login?returnUrl=${encodeURIComponent('/edit/webcams')}`);
  await logIn(page, admin);
  await page.waitForURL(`${url}/edit/webcams`);

  await click(page.getByRole('button', { name: 'Webcam hinzufügen' }));
  const add = page.getByRole('dialog', { name: 'Webcam hinzufügen' });
  await fill(add.getByLabel('Name', { exact: true }), name);
  await fill(add.getByLabel('Pattern (Bild-URL)'), kind.address());
  await fill(add.getByLabel('Distanz (km)'), '3');
  await fill(add.getByLabel('Blickwinkel (°)'), '80');
  await fill(add.getByLabel('Intervall (Minuten)'), '5');
  pace.click();
  pace.click();
  await add.getByLabel('Typ').selectOption('STATIC');
  await click(add.getByRole('button', { name: 'Speichern' }));
  await add.waitFor({ state: 'detached' });

  if (kind.source) {
    await click(page.getByRole('button', { name: `Bildquelle ${name}` }));
    const dialog = page.getByRole('dialog', { name: `Bildquelle für ${name}` });
    await dialog.getByRole('group', { name: 'Wie liefert die Kamera ihre Bilder?' }).waitFor();
    await click(dialog.getByText(kind.source, { exact: true }));
    if (kind.login) {
      await fill(dialog.getByLabel('Benutzer'), LOGIN.username);
      await fill(dialog.getByLabel('Passwort', { exact: true }), LOGIN.password);
    }
    if (kind.source.startsWith('Kamera lädt')) {
      await click(dialog.getByRole('button', { name: 'Speichern' }));
      await dialog.getByText(`Gespeichert: ${kind.source}.`).waitFor();
      const ftp = kind.source.includes('FTP');
      await click(dialog.getByRole('button', { name: ftp ? 'Passwort erzeugen' : 'Geheimnis erzeugen' }));
      const secret = (await dialog.locator('.source-secret code').textContent()) ?? '';
      // The operator enters the shown settings in the camera (server, port, user, password pasted), which uploads.
      if (ftp) {
        for (const value of [new URL(url).hostname, String(camera.ftpPort), name]) pace.type(value);
        pace.copy();
        const client = new Client(15_000);
        try {
          await client.access({
            host: new URL(url).hostname,
            port: camera.ftpPort,
            user: name,
            password: secret,
            secure: true,
            secureOptions: { rejectUnauthorized: false },
          });
          await client.uploadFrom(Readable.from([camera.picture]), 'bild.jpg');
        } finally {
          client.close();
        }
      } else {
        pace.copy();
        pace.copy();
        const answer = await fetch(`${url}/api/Image/Push/camera/${name}.jpg`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'image/jpeg' },
          body: new Uint8Array(camera.picture),
        });
        if (!answer.ok) throw new Error(`the push answered ${answer.status}: ${await answer.text()}`);
      }
      await click(dialog.getByRole('button', { name: 'Aktualisieren' }));
      await dialog.getByText(/^Letztes Bild: /).waitFor();
      await click(dialog.getByRole('button', { name: 'Schliessen' }).last());
      await click(page.getByRole('link', { name: `Ansehen ${name}` }));
    } else {
      await click(dialog.getByRole('button', { name: 'Verbindung testen' }));
      await dialog.locator('.source-test figcaption').waitFor({ timeout: 30_000 });
      await click(dialog.getByRole('button', { name: 'Speichern' }));
      await click(dialog.getByRole('link', { name: `Bild von ${name} ansehen` }));
    }
  } else {
    // The public camera: its first picture comes with the next capture, which "capture now" on /jobs makes.
    await page.goto(`${url}/jobs`);
    const frame = page.frameLocator('iframe').first();
    await click(frame.getByRole('button', { name: `Jetzt aufnehmen ${name}` }));
    await frame.getByText(`Neues Bild von ${name} aufgenommen.`).waitFor({ timeout: 30_000 });
    await page.goto(`${url}/edit/webcams`);
    await click(page.getByRole('link', { name: `Ansehen ${name}` }));
  }
  const shown = page.getByRole('img', { name: new RegExp(`^Webcam ${name}`) });
  await shown.waitFor({ timeout: 30_000 });
  await page.waitForFunction(
    (element) => element instanceof HTMLImageElement && element.complete && element.naturalWidth > 0,
    await shown.elementHandle(),
  );
}
