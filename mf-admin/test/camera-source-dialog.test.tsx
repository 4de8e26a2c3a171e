import type { CameraSource, ConnectionTestResult, Webcam } from '@lakecams/contracts';
import { type FakeRoute, jsonResponse } from '@lakecams/session/testing';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CameraAdministrationPage } from '../src/pages/camera-administration-page.tsx';
import { adminSession, queryOf, renderPage, textResponse } from './admin-test-kit.tsx';

const au: Webcam = {
  id: 3,
  name: 'Halbinsel-Au',
  pattern: 'https://cams.example/au.jpg',
  distance: 2,
  angle: 70,
  intervalMin: 5,
  webcamType: 'STATIC',
};

const SOURCE: CameraSource = {
  webcamId: 3,
  kind: 'http',
  username: '',
  passwordSet: false,
  transport: 'tcp',
  ftp: { user: 'Halbinsel-Au', host: null, port: 2121, tls: true, passwordSet: false },
  push: { path: '/api/Image/Push/camera/Halbinsel-Au.jpg', secretSet: false },
  lastUpload: null,
};

const source = (overrides: Partial<CameraSource> = {}): CameraSource => ({ ...SOURCE, ...overrides });

const OK: ConnectionTestResult = {
  ok: true,
  width: 1920,
  height: 1080,
  bytes: 245 * 1024,
  ms: 800,
  preview: 'data:image/jpeg;base64,/9j/AA==',
};

/**
 * The camera page with the "Bildquelle" dialog open; the source route answers GET with `stored` and PUT
 * with what was sent merged into it, as svc-imaging does.
 */
async function openSourceDialog(stored: CameraSource, routes: Record<string, FakeRoute> = {}) {
  let current = stored;
  const fake = await adminSession({
    '/api/Webcam/GetCameras': () => jsonResponse([au]),
    '/api/News/News/news': () => textResponse(''),
    '/api/Image/Source': ({ init }) => {
      if (init.method === 'PUT') {
        const { password, ...update } = JSON.parse(String(init.body)) as Partial<CameraSource> & {
          password?: string;
        };
        current = {
          ...current,
          ...update,
          passwordSet: password === undefined ? current.passwordSet : password !== '',
        };
      }
      return jsonResponse(current);
    },
    // Making a password or secret sets it, as svc-imaging does; the routes given answer what was made.
    '/api/Image/Source/FtpPassword': async (request) => {
      current = { ...current, ftp: { ...current.ftp, passwordSet: true } };
      return routes['/api/Image/Source/FtpPassword']?.(request) ?? jsonResponse({}, 500);
    },
    // Saving a fetched source captures at once, as "capture now" on /jobs does.
    '/api/Jobs/retry': () => jsonResponse({ outcome: 'captured', image: { webcamId: 3 } }),
    '/api/Image/Source/PushSecret': async (request) => {
      current = { ...current, push: { ...current.push, secretSet: true } };
      return routes['/api/Image/Source/PushSecret']?.(request) ?? jsonResponse({}, 500);
    },
  });
  for (const [path, route] of Object.entries(routes))
    if (!path.startsWith('/api/Image/Source/') || path === '/api/Image/Source/Test') fake.route(path, route);
  renderPage(fake.session, '/edit/webcams', <CameraAdministrationPage />);
  fireEvent.click(await screen.findByRole('button', { name: 'Bildquelle Halbinsel-Au' }));
  const dialog = await screen.findByRole('dialog', { name: 'Bildquelle für Halbinsel-Au' });
  await within(dialog).findByRole('group', { name: 'Wie liefert die Kamera ihre Bilder?' });
  return { fake, dialog };
}

const field = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText(label) as HTMLInputElement;
const radio = (dialog: HTMLElement, label: string) =>
  within(dialog).getByRole('radio', { name: label }) as HTMLInputElement;

async function click(element: HTMLElement) {
  await act(async () => {
    fireEvent.click(element);
  });
}

const puts = (fake: Awaited<ReturnType<typeof adminSession>>) =>
  fake.requestsTo('/api/Image/Source').filter((request) => request.method === 'PUT');

describe('the camera source dialog ("Bildquelle")', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('offers the four ways a camera delivers, the stored one chosen', async () => {
    const { dialog } = await openSourceDialog(source({ kind: 'ftp' }));
    const group = within(dialog).getByRole('group', { name: 'Wie liefert die Kamera ihre Bilder?' });
    expect(within(group).getAllByRole('radio')).toHaveLength(4);
    for (const label of [
      'Bild abrufen (HTTP/HTTPS)',
      'Stream (RTSP, HLS, MJPEG)',
      'Kamera lädt per FTP/FTPS hoch',
      'Kamera lädt per HTTP hoch',
    ]) {
      expect(radio(dialog, label)).toBeTruthy();
    }
    expect(radio(dialog, 'Kamera lädt per FTP/FTPS hoch').checked).toBe(true);
    expect(radio(dialog, 'Bild abrufen (HTTP/HTTPS)').checked).toBe(false);
  });

  describe('a camera the portal fetches (http)', () => {
    it('shows the camera’s URL read-only and its login, the password never filled in', async () => {
      const { dialog } = await openSourceDialog(source({ username: 'kamera', passwordSet: true }));
      const url = field(dialog, 'Adresse des Bildes');
      expect(url.value).toBe('https://cams.example/au.jpg');
      expect(url.readOnly).toBe(true);
      expect(within(dialog).getByText('Die Adresse der Webcam; ändern unter «Bearbeiten».')).toBeTruthy();
      expect(field(dialog, 'Benutzer').value).toBe('kamera');
      const password = field(dialog, 'Passwort');
      expect(password.type).toBe('password');
      expect(password.autocomplete).toBe('new-password');
      expect(password.value).toBe('');
      expect(password.placeholder).toBe('gesetzt');
      expect(password.getAttribute('aria-describedby')).toBeTruthy();
      expect(within(dialog).getByText('Leer lassen: bleibt; «Passwort entfernen» löscht es.')).toBeTruthy();
      expect(within(dialog).getByRole('button', { name: 'Passwort entfernen' })).toBeTruthy();
      expect(within(dialog).queryByLabelText('Transport')).toBeNull();
    });

    it('has no placeholder, hint or removal while no password is set', async () => {
      const { dialog } = await openSourceDialog(source());
      expect(field(dialog, 'Passwort').placeholder).toBe('');
      expect(within(dialog).queryByRole('button', { name: 'Passwort entfernen' })).toBeNull();
    });

    it('saves a password left empty without one, so the stored password stays', async () => {
      const { fake, dialog } = await openSourceDialog(source({ username: 'kamera', passwordSet: true }));
      fireEvent.change(field(dialog, 'Benutzer'), { target: { value: ' hafen ' } });
      await click(within(dialog).getByRole('button', { name: 'Speichern' }));
      const [put] = puts(fake);
      expect(queryOf(put?.url ?? '')).toEqual({ webcamId: '3' });
      expect(put?.body).toEqual({ kind: 'http', username: 'hafen' });
      expect(put?.body).not.toHaveProperty('password');
      expect(within(dialog).getByText('Gespeichert: Bild abrufen (HTTP/HTTPS).')).toBeTruthy();
    });

    it('captures at once after saving, and leads to the picture', async () => {
      const { fake, dialog } = await openSourceDialog(source());
      await click(within(dialog).getByRole('button', { name: 'Speichern' }));
      const [capture] = fake.requestsTo('/api/Jobs/retry');
      expect(capture?.method).toBe('POST');
      expect(queryOf(capture?.url ?? '')).toEqual({ webcamId: '3' });
      await within(dialog).findByText(/Erstes Bild aufgenommen\./);
      const link = within(dialog).getByRole('link', { name: 'Bild von Halbinsel-Au ansehen' });
      expect(link.getAttribute('href')).toBe('/webcam/Halbinsel-Au');
    });

    it('says why the capture after saving failed, the source staying saved', async () => {
      const { dialog } = await openSourceDialog(source(), {
        '/api/Jobs/retry': () => jsonResponse({ outcome: 'failed', error: 'Camera refused the login (401, Digest)' }),
      });
      await click(within(dialog).getByRole('button', { name: 'Speichern' }));
      expect(within(dialog).getByText('Gespeichert: Bild abrufen (HTTP/HTTPS).')).toBeTruthy();
      await within(dialog).findByText('Die Aufnahme hat nicht geklappt: Camera refused the login (401, Digest)');
    });

    it('says when this minute was captured already', async () => {
      const { dialog } = await openSourceDialog(source(), {
        '/api/Jobs/retry': () => jsonResponse({ statusCode: 409, error: 'Conflict', message: 'captured' }, 409),
      });
      await click(within(dialog).getByRole('button', { name: 'Speichern' }));
      await within(dialog).findByText(/Diese Minute ist schon aufgenommen\./);
    });

    it('saves a password typed in, then empties the field again', async () => {
      const { fake, dialog } = await openSourceDialog(source());
      fireEvent.change(field(dialog, 'Benutzer'), { target: { value: 'kamera' } });
      fireEvent.change(field(dialog, 'Passwort'), { target: { value: 'geheim' } });
      await click(within(dialog).getByRole('button', { name: 'Speichern' }));
      expect(puts(fake)[0]?.body).toEqual({ kind: 'http', username: 'kamera', password: 'geheim' });
      expect(field(dialog, 'Passwort').value).toBe('');
      expect(field(dialog, 'Passwort').placeholder).toBe('gesetzt');
    });

    it('removes the stored password with "Passwort entfernen", keeping the focus in the dialog', async () => {
      const { fake, dialog } = await openSourceDialog(source({ username: 'kamera', passwordSet: true }));
      await click(within(dialog).getByRole('button', { name: 'Passwort entfernen' }));
      expect(puts(fake)[0]?.body).toEqual({ kind: 'http', password: '' });
      expect(within(dialog).queryByRole('button', { name: 'Passwort entfernen' })).toBeNull();
      expect(field(dialog, 'Passwort').placeholder).toBe('');
      expect(document.activeElement).toBe(field(dialog, 'Passwort'));
      expect(within(dialog).getByText('Das Passwort ist entfernt.')).toBeTruthy();
    });

    it('tests the connection with the values entered; an empty password is left out', async () => {
      const { fake, dialog } = await openSourceDialog(source({ username: 'kamera', passwordSet: true }), {
        '/api/Image/Source/Test': () => jsonResponse(OK),
      });
      await click(within(dialog).getByRole('button', { name: 'Verbindung testen' }));
      const [test] = fake.requestsTo('/api/Image/Source/Test');
      expect(test?.method).toBe('POST');
      expect(queryOf(test?.url ?? '')).toEqual({ webcamId: '3' });
      expect(test?.body).toEqual({ kind: 'http', url: 'https://cams.example/au.jpg', username: 'kamera' });

      fireEvent.change(field(dialog, 'Passwort'), { target: { value: 'neu' } });
      await click(within(dialog).getByRole('button', { name: 'Verbindung testen' }));
      expect(fake.requestsTo('/api/Image/Source/Test')[1]?.body).toEqual({
        kind: 'http',
        url: 'https://cams.example/au.jpg',
        username: 'kamera',
        password: 'neu',
      });
      // Testing saves nothing.
      expect(puts(fake)).toHaveLength(0);
    });

    it('shows the test picture with its size, bytes and time in a status region', async () => {
      const { dialog } = await openSourceDialog(source(), { '/api/Image/Source/Test': () => jsonResponse(OK) });
      await click(within(dialog).getByRole('button', { name: 'Verbindung testen' }));
      const picture = within(dialog).getByRole('img', { name: 'Testbild von Halbinsel-Au' }) as HTMLImageElement;
      expect(picture.getAttribute('src')).toBe(OK.preview);
      expect(picture.getAttribute('width')).toBe('480');
      expect(picture.getAttribute('height')).toBe('270');
      const status = picture.closest('[role="status"]') as HTMLElement;
      expect(status.getAttribute('aria-live')).toBe('polite');
      expect(within(status).getByText('1920 × 1080 px, 245 KB, in 0.8 s')).toBeTruthy();
      expect(within(status).getByText('Die Kamera liefert ein Bild.')).toBeTruthy();
    });

    it.each([
      ['dns', 'Der Name des Servers ist unbekannt (DNS).', false],
      ['refused', 'Die Kamera nimmt keine Verbindung an.', false],
      ['timeout', 'Die Kamera antwortet nicht rechtzeitig.', false],
      ['login', 'Die Kamera lehnt die Anmeldung ab.', true],
      ['not-found', 'Unter dieser Adresse gibt es kein Bild (404).', false],
      ['not-a-picture', 'Die Antwort ist kein Bild.', false],
      ['too-large', 'Das Bild ist zu gross.', false],
      ['no-frame', 'Der Stream liefert kein Bild.', false],
      ['other', 'Das Bild konnte nicht geholt werden.', true],
    ] as const)(
      'says in German why the test found no picture (%s), and after how long',
      async (reason, text, detail) => {
        const message = reason === 'login' ? 'Camera refused the login (Digest)' : `Camera fetch failed: ${reason}`;
        const { dialog } = await openSourceDialog(source(), {
          '/api/Image/Source/Test': () => jsonResponse({ ok: false, ms: 2340, reason, message }),
        });
        await click(within(dialog).getByRole('button', { name: 'Verbindung testen' }));
        const shown = within(dialog).getByText(text);
        const status = shown.closest('[role="status"]') as HTMLElement;
        expect(status).toBeTruthy();
        expect(within(status).getByText('Dauer: 2.3 s')).toBeTruthy();
        expect(within(status).queryByText(message) !== null).toBe(detail);
        if (detail) expect(within(status).getByText(message).tagName).toBe('SMALL');
        expect(within(dialog).queryByRole('img')).toBeNull();
      },
    );

    it('keeps "Verbindung testen" focusable while it runs, so the focus stays in the dialog', async () => {
      let answer: (response: Response) => void = () => {};
      const { fake, dialog } = await openSourceDialog(source(), {
        '/api/Image/Source/Test': () => new Promise<Response>((resolve) => (answer = resolve)),
      });
      const button = within(dialog).getByRole('button', { name: 'Verbindung testen' }) as HTMLButtonElement;
      button.focus();
      await click(button);
      expect(button.disabled).toBe(false);
      expect(button.getAttribute('aria-disabled')).toBe('true');
      expect(within(dialog).getByText('Verbindung wird getestet …')).toBeTruthy();
      // A second click while it runs sends nothing more.
      await click(button);
      expect(fake.requestsTo('/api/Image/Source/Test')).toHaveLength(1);
      await act(async () => answer(jsonResponse(OK)));
      expect(button.getAttribute('aria-disabled')).toBe('false');
      expect(document.activeElement).toBe(button);
    });

    it('says so when the test itself is refused', async () => {
      const { dialog } = await openSourceDialog(source(), {
        '/api/Image/Source/Test': () =>
          jsonResponse({ statusCode: 400, error: 'Bad Request', message: 'body/url must match pattern' }, 400),
      });
      await click(within(dialog).getByRole('button', { name: 'Verbindung testen' }));
      expect(within(dialog).getByRole('alert').textContent).toBeTruthy();
    });
  });

  describe('a stream', () => {
    it('asks for the transport and sends it with the save and the test', async () => {
      const { fake, dialog } = await openSourceDialog(source({ username: 'kamera' }), {
        '/api/Image/Source/Test': () =>
          jsonResponse({ ok: false, ms: 5000, reason: 'no-frame', message: 'No frame within 5 s' }),
      });
      fireEvent.click(radio(dialog, 'Stream (RTSP, HLS, MJPEG)'));
      expect(within(dialog).getByText(/Noch nicht gespeichert: die Webcam liefert ihre Bilder/)).toBeTruthy();
      expect(field(dialog, 'Adresse des Streams').value).toBe('https://cams.example/au.jpg');
      const transport = within(dialog).getByLabelText('Transport') as HTMLSelectElement;
      expect(transport.value).toBe('tcp');
      expect([...transport.options].map((option) => option.textContent)).toEqual(['TCP', 'UDP']);
      fireEvent.change(transport, { target: { value: 'udp' } });
      await click(within(dialog).getByRole('button', { name: 'Verbindung testen' }));
      expect(fake.requestsTo('/api/Image/Source/Test')[0]?.body).toEqual({
        kind: 'stream',
        url: 'https://cams.example/au.jpg',
        username: 'kamera',
        transport: 'udp',
      });
      expect(within(dialog).getByText('Der Stream liefert kein Bild.')).toBeTruthy();
      await click(within(dialog).getByRole('button', { name: 'Speichern' }));
      expect(puts(fake)[0]?.body).toEqual({ kind: 'stream', username: 'kamera', transport: 'udp' });
      expect(within(dialog).queryByText(/Noch nicht gespeichert/)).toBeNull();
    });
  });

  describe('a camera that uploads by FTP', () => {
    it('saves the kind alone, and lists the settings for the camera', async () => {
      const { fake, dialog } = await openSourceDialog(source({ username: 'kamera', passwordSet: true }));
      fireEvent.click(radio(dialog, 'Kamera lädt per FTP/FTPS hoch'));
      expect(within(dialog).queryByLabelText('Passwort')).toBeNull();
      const list = within(dialog).getByLabelText('FTP-Einstellungen');
      const rows = [...list.querySelectorAll('div')].map((row) => [
        row.querySelector('dt')?.textContent,
        row.querySelector('dd')?.textContent,
      ]);
      expect(rows).toEqual([
        ['Server', window.location.hostname],
        ['Port', '2121'],
        ['Benutzer', 'Halbinsel-Au'],
        ['Passwort', '(noch keines)'],
        ['Passiver Modus', 'ja'],
        ['Explizites FTP über TLS', 'ja (empfohlen)'],
      ]);
      expect(within(dialog).getByText('Noch kein Passwort: ohne eines kann die Kamera nicht hochladen.')).toBeTruthy();
      expect(within(dialog).getByText('Noch kein Bild empfangen')).toBeTruthy();
      await click(within(dialog).getByRole('button', { name: 'Speichern' }));
      expect(puts(fake)[0]?.body).toEqual({ kind: 'ftp' });
      // A camera that uploads brings its first picture itself.
      expect(fake.requestsTo('/api/Jobs/retry')).toEqual([]);
    });

    it('shows a new password once, in the curl example and the settings, and never again', async () => {
      let made = 0;
      const { fake, dialog } = await openSourceDialog(source({ kind: 'ftp' }), {
        '/api/Image/Source/FtpPassword': () => jsonResponse({ user: 'Halbinsel-Au', password: `Pw-${++made}-xyz` }),
      });
      await click(within(dialog).getByRole('button', { name: 'Passwort erzeugen' }));
      const [request] = fake.requestsTo('/api/Image/Source/FtpPassword');
      expect(request?.method).toBe('POST');
      expect(queryOf(request?.url ?? '')).toEqual({ webcamId: '3' });
      expect(
        within(dialog).getByText('Neues Passwort, nur jetzt sichtbar: bitte gleich in der Kamera eintragen.'),
      ).toBeTruthy();
      const codes = [...dialog.querySelectorAll('code')].map((code) => code.textContent);
      expect(codes).toContain('Pw-1-xyz');
      expect(codes).toContain(
        `curl -T bild.jpg --ftp-ssl ftp://Halbinsel-Au:Pw-1-xyz@${window.location.hostname}:2121/`,
      );
      expect(within(dialog).getByRole('button', { name: 'Neues Passwort erzeugen' })).toBeTruthy();

      // Closed and opened again: the server never sends it back, so it is gone.
      await click(within(dialog).getAllByRole('button', { name: 'Schliessen' }).at(-1) as HTMLElement);
      fireEvent.click(screen.getByRole('button', { name: 'Bildquelle Halbinsel-Au' }));
      const again = await screen.findByRole('dialog', { name: 'Bildquelle für Halbinsel-Au' });
      await within(again).findByRole('button', { name: 'Neues Passwort erzeugen' });
      expect(again.textContent).not.toContain('Pw-1-xyz');
      expect(within(again).getByText('Ein Passwort ist gesetzt. Es wurde nur beim Erzeugen angezeigt.')).toBeTruthy();
      expect([...again.querySelectorAll('code')].map((code) => code.textContent)).toContain(
        `curl -T bild.jpg --ftp-ssl ftp://Halbinsel-Au:<Passwort>@${window.location.hostname}:2121/`,
      );
    });

    it('asks before a new password replaces the old one', async () => {
      const { fake, dialog } = await openSourceDialog(
        source({ kind: 'ftp', ftp: { ...SOURCE.ftp, passwordSet: true } }),
        { '/api/Image/Source/FtpPassword': () => jsonResponse({ user: 'Halbinsel-Au', password: 'Neu-123' }) },
      );
      await click(within(dialog).getByRole('button', { name: 'Neues Passwort erzeugen' }));
      const question = screen.getByRole('dialog', { name: 'Neues FTP-Passwort für Halbinsel-Au' });
      expect(question.textContent).toContain('Das bisherige Passwort gilt danach nicht mehr');
      expect(fake.requestsTo('/api/Image/Source/FtpPassword')).toHaveLength(0);
      await click(within(question).getByRole('button', { name: 'Abbrechen' }));
      expect(screen.queryByRole('dialog', { name: 'Neues FTP-Passwort für Halbinsel-Au' })).toBeNull();
      expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Neues Passwort erzeugen' }));

      await click(within(dialog).getByRole('button', { name: 'Neues Passwort erzeugen' }));
      await click(
        within(screen.getByRole('dialog', { name: 'Neues FTP-Passwort für Halbinsel-Au' })).getByRole('button', {
          name: 'Neues Passwort erzeugen',
        }),
      );
      expect(fake.requestsTo('/api/Image/Source/FtpPassword')).toHaveLength(1);
      expect([...dialog.querySelectorAll('code')].map((code) => code.textContent)).toContain('Neu-123');
    });

    it('leaves --ftp-ssl out where the portal offers no TLS, and names its own FTP host', async () => {
      const { dialog } = await openSourceDialog(
        source({ kind: 'ftp', ftp: { ...SOURCE.ftp, host: 'ftp.lakecams.ch', port: 21, tls: false } }),
        { '/api/Image/Source/FtpPassword': () => jsonResponse({ user: 'Halbinsel-Au', password: 'abc' }) },
      );
      await click(within(dialog).getByRole('button', { name: 'Passwort erzeugen' }));
      expect([...dialog.querySelectorAll('code')].map((code) => code.textContent)).toContain(
        'curl -T bild.jpg ftp://Halbinsel-Au:abc@ftp.lakecams.ch:21/',
      );
      expect(within(dialog).getByText('nein (nicht angeboten)')).toBeTruthy();
    });

    it('tells when the last picture arrived, in the region’s time, and looks again on request', async () => {
      let answer = source({ kind: 'ftp' });
      const { dialog } = await openSourceDialog(answer, { '/api/Image/Source': () => jsonResponse(answer) });
      expect(within(dialog).getByText('Noch kein Bild empfangen')).toBeTruthy();
      answer = source({ kind: 'ftp', lastUpload: { name: '202611270850', at: '2026-11-27T07:50:12Z', via: 'ftp' } });
      await click(within(dialog).getByRole('button', { name: 'Aktualisieren' }));
      const last = await within(dialog).findByText('Letztes Bild: 27.11.2026, 08:50 Uhr per FTP');
      expect(last.getAttribute('role')).toBe('status');
    });
  });

  describe('a camera that uploads by HTTP', () => {
    it('shows the upload address, a secret once and curl examples with it', async () => {
      const { fake, dialog } = await openSourceDialog(source({ kind: 'push' }), {
        '/api/Image/Source/PushSecret': () =>
          jsonResponse({ path: '/api/Image/Push/camera/Halbinsel-Au.jpg', secret: 'S3cr3t_xyz' }),
      });
      const url = `${window.location.origin}/api/Image/Push/camera/Halbinsel-Au.jpg`;
      const codes = () => [...dialog.querySelectorAll('code')].map((code) => code.textContent);
      expect(codes()).toContain(url);
      expect(codes()).toContain(
        `curl -T bild.jpg -H "Content-Type: image/jpeg" -H "Authorization: Bearer <Geheimnis>" ${url}`,
      );
      await click(within(dialog).getByRole('button', { name: 'Geheimnis erzeugen' }));
      expect(queryOf(fake.requestsTo('/api/Image/Source/PushSecret')[0]?.url ?? '')).toEqual({ webcamId: '3' });
      expect(codes()).toContain('S3cr3t_xyz');
      expect(codes()).toContain(
        `curl -T bild.jpg -H "Content-Type: image/jpeg" -H "Authorization: Bearer S3cr3t_xyz" ${url}`,
      );
      expect(codes()).toContain(`curl -F file=@bild.jpg -u Halbinsel-Au:S3cr3t_xyz ${url}`);
      expect(within(dialog).getByRole('button', { name: 'Neues Geheimnis erzeugen' })).toBeTruthy();
      await click(within(dialog).getByRole('button', { name: 'Speichern' }));
      expect(puts(fake)[0]?.body).toEqual({ kind: 'push' });
    });

    it('says the last picture came by HTTP', async () => {
      const { dialog } = await openSourceDialog(
        source({ kind: 'push', lastUpload: { name: '202607011405', at: '2026-07-01T12:05:00Z', via: 'push' } }),
      );
      expect(within(dialog).getByText('Letztes Bild: 01.07.2026, 14:05 Uhr per HTTP')).toBeTruthy();
    });

    it('copies an example to the clipboard, or marks it to copy by hand', async () => {
      const writeText = vi.fn(async () => {});
      vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
      const { dialog } = await openSourceDialog(source({ kind: 'push' }));
      await click(within(dialog).getByRole('button', { name: 'Adresse für Uploads kopieren' }));
      expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/api/Image/Push/camera/Halbinsel-Au.jpg`);
      expect(within(dialog).getByText('Kopiert.')).toBeTruthy();
      writeText.mockRejectedValueOnce(new Error('denied'));
      await click(within(dialog).getByRole('button', { name: 'curl-Befehl mit Formular kopieren' }));
      expect(within(dialog).getByText('Bitte mit Ctrl+C kopieren.')).toBeTruthy();
    });
  });
});
