import type { Layer, RefererUser, Webcam } from '@lakecams/contracts';
import { jsonResponse } from '@lakecams/session/testing';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CameraSetupPage } from '../src/pages/camera-setup-page.tsx';
import { adminSession, queryOf, renderPage, textResponse } from './admin-test-kit.tsx';

const au: Webcam = {
  id: 3,
  name: 'Halbinsel-Au',
  pattern: 'https://x/au.jpg',
  distance: 2,
  angle: 70,
  intervalMin: 5,
  webcamType: 'STATIC',
};
const ufenau: Webcam = { ...au, id: 4, name: 'Ufenau' };
const referers: RefererUser[] = [
  { id: 1, userEmail: 'erika@example.ch', url: 'https://partner.ch/' },
  { id: 2, userEmail: 'erika@example.ch', url: 'https://zwei.ch/' },
];
const baseLayer: Layer = {
  id: 11,
  level: 'BASE',
  cron: '* * * * *',
  enabled: true,
  url: 'https://partner.ch/',
  cameraId: 3,
};

async function openPage(routes = {}, { roles = ['Admin'], ownReferers = [] as RefererUser[] } = {}) {
  const layers: Record<string, Layer[]> = { BASE: [baseLayer], TIME: [], OFFLINE: [] };
  const fake = await adminSession(
    {
      '/api/Referer/GetReferers': () => jsonResponse(referers),
      '/api/Referer/GetCameras/Cameras': ({ url }) =>
        jsonResponse(queryOf(url).url === 'https://zwei.ch/' ? [ufenau] : [au, ufenau]),
      '/api/Referer/GetCameraInfo': () => jsonResponse({ width: 1920, height: 1080 }),
      '/api/Image/EmbedViews': ({ url }) =>
        jsonResponse({
          camera: queryOf(url).camera,
          page: queryOf(url).page,
          days:
            queryOf(url).page === 'https://partner.ch/'
              ? [
                  { day: '2026-11-27', views: 42 },
                  { day: '2026-11-26', views: 7 },
                ]
              : [],
        }),
      '/api/Referer/GetLayer/layer': ({ url }) => jsonResponse(layers[queryOf(url).level ?? ''] ?? []),
      '/api/Referer/GetLayerImage/layerimage': () =>
        new Response(new Blob(['png']), { headers: { 'Content-Type': 'image/png' } }),
      ...routes,
    },
    roles,
    ownReferers,
  );
  renderPage(fake.session, '/edit/referer/cameras', <CameraSetupPage />);
  return { fake, layers };
}

const preview = () => screen.getByRole('img', { name: /^Vorschau:/ }).getAttribute('src');
const baseGroup = () => screen.getByRole('region', { name: /Basis-Layer/ });
const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' });

describe('camera setup', () => {
  afterEach(cleanup);

  it('is for admins and users with referers', async () => {
    await openPage({}, { roles: [] });
    expect(screen.getByText('Diese Seite ist Benutzern mit Referern und Administratoren vorbehalten.')).toBeTruthy();
    cleanup();
    await openPage({}, { roles: [], ownReferers: [referers[0] as RefererUser] });
    expect(await screen.findByLabelText('Seite (URL)')).toBeTruthy();
  });

  it('chooses the first url and camera, shows size, download link and embed code, and loads the three levels', async () => {
    const { fake } = await openPage();
    expect(await screen.findByText('1920 × 1080 Pixel')).toBeTruthy();
    expect((screen.getByLabelText('Seite (URL)') as HTMLSelectElement).value).toBe('https://partner.ch/');
    expect((screen.getByLabelText('Webcam') as HTMLSelectElement).value).toBe('3');
    expect(queryOf(fake.requestsTo('/api/Referer/GetCameras/Cameras')[0]?.url ?? '')).toEqual({
      url: 'https://partner.ch/',
    });
    const download = screen.getByRole('link', { name: 'Bild herunterladen (Halbinsel-Au.jpg)' });
    expect(download.getAttribute('href')).toBe('/api/Image/Get/camera/Halbinsel-Au.jpg');
    expect((screen.getByLabelText('Einbettungscode') as HTMLTextAreaElement).value).toBe(
      `<img src="${window.location.origin}/api/Image/Get/camera/Halbinsel-Au.jpg" width="1920" height="1080" alt="Webcam Halbinsel-Au – Seecam Zürichsee" referrerpolicy="no-referrer-when-downgrade">`,
    );
    // The partner is told why the policy is in the code.
    expect(screen.getByLabelText('Einbettungscode').getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText(/lässt den Browser die volle Adresse Ihrer Seite mitsenden/)).toBeTruthy();
    // This page is not the partner's: its requests do not get the partner's layers, and the caption says so.
    expect(screen.getByText(/So erhält https:\/\/partner\.ch\/ das Bild/)).toBeTruthy();
    expect((screen.getByAltText(/Vorschau/) as HTMLImageElement).src).toContain(
      `page=${encodeURIComponent('https://partner.ch/')}`,
    );
    const levels = fake.requestsTo('/api/Referer/GetLayer/layer').map((request) => queryOf(request.url));
    expect(levels).toEqual(
      expect.arrayContaining(
        ['BASE', 'TIME', 'OFFLINE'].map((level) => ({ url: 'https://partner.ch/', level, cameraId: '3' })),
      ),
    );
    expect(await within(baseGroup()).findByText('Layer 11')).toBeTruthy();
    expect(await within(baseGroup()).findByRole('img', { name: 'Bild von Layer 11' })).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Seite (URL)'), { target: { value: 'https://zwei.ch/' } });
    // Only Ufenau is booked for the second page: it becomes the camera.
    await screen.findByRole('link', { name: 'Bild herunterladen (Ufenau.jpg)' });
    expect((screen.getByLabelText('Webcam') as HTMLSelectElement).value).toBe('4');
  });

  it('hands out the player as custom element and as iframe, previews it as the page shows it, warns of an unbooked page and counts its views', async () => {
    const { fake } = await openPage();
    const player = await screen.findByRole('region', { name: 'Player einbetten' });
    const origin = window.location.origin;
    expect((within(player).getByLabelText('Player-Code') as HTMLTextAreaElement).value).toBe(
      `<script type="module" src="${origin}/embed/v1.js" async></script>\n<seecam-player camera="Halbinsel-Au" lang="de"></seecam-player>`,
    );
    expect((within(player).getByLabelText('iframe-Code') as HTMLTextAreaElement).value).toBe(
      `<iframe src="${origin}/api/Image/Embed/camera/Halbinsel-Au" title="Webcam Halbinsel-Au – Seecam Zürichsee" width="640" height="420" referrerpolicy="no-referrer-when-downgrade" allow="fullscreen" loading="lazy"></iframe>`,
    );
    // The preview is the player's frame as the booked page gets it (its owner's `page=`).
    expect(within(player).getByTitle('Vorschau des Players für https://partner.ch/').getAttribute('src')).toBe(
      `/api/Image/Embed/camera/Halbinsel-Au?page=${encodeURIComponent('https://partner.ch/')}`,
    );
    // Views per day of the booked page.
    expect(
      await within(player).findByText(
        '49 Aufrufe von https://partner.ch/ in den letzten 30 Tagen (ohne Angaben zu den Besuchern)',
      ),
    ).toBeTruthy();
    expect(within(player).getByRole('row', { name: '27.11.2026 42' })).toBeTruthy();
    expect(queryOf(fake.requestsTo('/api/Image/EmbedViews')[0]?.url ?? '')).toEqual({
      camera: 'Halbinsel-Au',
      page: 'https://partner.ch/',
    });

    const page = within(player).getByLabelText('Seite, auf der der Player erscheint');
    expect((page as HTMLInputElement).value).toBe('https://partner.ch/');
    expect(within(player).queryByRole('alert')).toBeNull();
    fireEvent.change(page, { target: { value: 'https://partner.ch/wetter/heute' } });
    expect(within(player).queryByRole('alert')).toBeNull();
    fireEvent.change(page, { target: { value: 'https://www.partner.ch/' } });
    expect(within(player).getByRole('alert').textContent).toBe(
      'Gebucht ist https://partner.ch/: https://www.partner.ch ist eine andere Website, also zeigt der Player dort nur die öffentliche Qualität, ohne Ihre Layer.',
    );
    expect(page.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(page, { target: { value: 'partner.ch' } });
    expect(within(player).getByRole('alert').textContent).toBe(
      'Bitte die vollständige Adresse der Seite angeben (https://…).',
    );

    // Another booked page: its address, its views.
    fireEvent.change(screen.getByLabelText('Seite (URL)'), { target: { value: 'https://zwei.ch/' } });
    // Only Ufenau is booked there: the section is that camera's now.
    const other = await screen.findByRole('region', { name: 'Player einbetten' });
    await within(other).findByText('In den letzten 30 Tagen noch keine Aufrufe von https://zwei.ch/.');
    expect((within(other).getByLabelText('Seite, auf der der Player erscheint') as HTMLInputElement).value).toBe(
      'https://zwei.ch/',
    );
  });

  it('adds a layer only with an image, sends the multipart fields, appends it and reloads the preview', async () => {
    const { fake } = await openPage({ '/api/Referer/SetLayer/layer': () => textResponse('17') });
    await within(await screen.findByRole('region', { name: /Zeit-Layer/ })).findByText('Keine Layer.');
    const before = preview();
    fireEvent.click(screen.getByRole('button', { name: 'Layer hinzufügen (Zeit-Layer)' }));
    const dialog = screen.getByRole('dialog', { name: 'Zeit-Layer: neuer Layer' });
    expect((within(dialog).getByLabelText('Cron') as HTMLInputElement).value).toBe('* * * * *');
    expect((within(dialog).getByLabelText('Aktiv') as HTMLInputElement).checked).toBe(true);
    expect(within(dialog).queryByRole('button', { name: 'Speichern, Bild behalten' })).toBeNull();
    const save = within(dialog).getByRole('button', { name: 'Mit Bild speichern' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);

    fireEvent.change(within(dialog).getByLabelText('Cron'), { target: { value: 'jeden Montag' } });
    fireEvent.blur(within(dialog).getByLabelText('Cron'));
    expect(within(dialog).getByText('This is not a cron definition')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Cron'), { target: { value: '' } });
    expect(within(dialog).getByText('Cron definition wird benötigt')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Cron'), { target: { value: '*/5 8-18 * * 1-5' } });
    fireEvent.click(within(dialog).getByLabelText('Aktiv'));
    fireEvent.change(within(dialog).getByLabelText('Bild des Layers'), { target: { files: [png()] } });
    await act(async () => {
      fireEvent.click(save);
    });

    const [request] = fake.requestsTo('/api/Referer/SetLayer/layer');
    expect(request?.method).toBe('POST');
    const form = request?.body as FormData;
    expect(Object.fromEntries([...form.entries()].filter(([key]) => key !== 'file'))).toEqual({
      url: 'https://partner.ch/',
      level: 'TIME',
      id: '',
      enabled: 'false',
      cron: '*/5 8-18 * * 1-5',
      cameraId: '3',
    });
    expect((form.get('file') as File).name).toBe('logo.png');
    expect(screen.queryByRole('dialog')).toBeNull();
    const time = screen.getByRole('region', { name: /Zeit-Layer/ });
    expect(within(time).getByText('Layer 17')).toBeTruthy();
    expect(within(time).getByText('Inaktiv')).toBeTruthy();
    expect(preview()).not.toBe(before);
  });

  it('keeps the image of an existing layer on request, replacing it in the list; cancel discards', async () => {
    const { fake } = await openPage({ '/api/Referer/SetLayer/layer': () => textResponse('11') });
    fireEvent.click(await screen.findByRole('button', { name: 'Layer 11 bearbeiten' }));
    let dialog = screen.getByRole('dialog', { name: 'Basis-Layer: Layer 11 bearbeiten' });
    fireEvent.change(within(dialog).getByLabelText('Cron'), { target: { value: '0 * * * *' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));
    expect(fake.requestsTo('/api/Referer/SetLayer/layer')).toHaveLength(0);
    expect(within(baseGroup()).getByText('* * * * *')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Layer 11 bearbeiten' }));
    dialog = screen.getByRole('dialog', { name: 'Basis-Layer: Layer 11 bearbeiten' });
    expect((within(dialog).getByLabelText('Cron') as HTMLInputElement).value).toBe('* * * * *');
    fireEvent.change(within(dialog).getByLabelText('Cron'), { target: { value: '0 * * * *' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Speichern, Bild behalten' }));
    });
    const form = fake.requestsTo('/api/Referer/SetLayer/layer')[0]?.body as FormData;
    expect(form.get('id')).toBe('11');
    expect(form.has('file')).toBe(false);
    expect(within(baseGroup()).getAllByRole('listitem')).toHaveLength(1);
    expect(within(baseGroup()).getByText('0 * * * *')).toBeTruthy();
  });

  it('keeps both save buttons disabled, with the message, while the cron is not one croner reads', async () => {
    const { fake } = await openPage({ '/api/Referer/SetLayer/layer': () => textResponse('11') });
    fireEvent.click(await screen.findByRole('button', { name: 'Layer 11 bearbeiten' }));
    const dialog = screen.getByRole('dialog', { name: 'Basis-Layer: Layer 11 bearbeiten' });
    fireEvent.change(within(dialog).getByLabelText('Neues Bild des Layers'), { target: { files: [png()] } });
    const buttons = ['Mit Bild speichern', 'Speichern, Bild behalten'].map(
      (name) => within(dialog).getByRole('button', { name }) as HTMLButtonElement,
    );
    for (const cron of [
      '99 99 99 99 99',
      '*/0 * * * *',
      '60-0 * * * *',
      '5-1/0 * * * *',
      '1,,2 * * * *',
      '- * * * *',
    ]) {
      fireEvent.change(within(dialog).getByLabelText('Cron'), { target: { value: cron } });
      expect(within(dialog).getByText('This is not a cron definition'), cron).toBeTruthy();
      expect(
        buttons.map((button) => button.disabled),
        cron,
      ).toEqual([true, true]);
      await act(async () => {
        fireEvent.submit(within(dialog).getByRole('form', { name: 'Layer' }));
      });
    }
    expect(fake.requestsTo('/api/Referer/SetLayer/layer')).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('Cron'), { target: { value: '*/15 * * * *' } });
    expect(within(dialog).queryByText('This is not a cron definition')).toBeNull();
    expect(buttons.map((button) => button.disabled)).toEqual([false, false]);
  });

  it('treats an empty layer id in the answer as a failure', async () => {
    await openPage({ '/api/Referer/SetLayer/layer': () => textResponse('') });
    fireEvent.click(await screen.findByRole('button', { name: 'Layer hinzufügen (Offline-Layer)' }));
    const dialog = screen.getByRole('dialog', { name: 'Offline-Layer: neuer Layer' });
    fireEvent.change(within(dialog).getByLabelText('Bild des Layers'), { target: { files: [png()] } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Mit Bild speichern' }));
    });
    expect(within(dialog).getByRole('alert').textContent).toBe('Der Server hat keine Layer-Id zurückgegeben.');
    expect(within(screen.getByRole('region', { name: /Offline-Layer/ })).getByText('Keine Layer.')).toBeTruthy();
  });

  it('says in German when the server finds the layer file is no image', async () => {
    await openPage({
      '/api/Referer/SetLayer/layer': () =>
        jsonResponse({ statusCode: 400, error: 'Bad Request', message: 'The file is not an image' }, 400),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Layer hinzufügen (Basis-Layer)' }));
    const dialog = screen.getByRole('dialog', { name: 'Basis-Layer: neuer Layer' });
    fireEvent.change(within(dialog).getByLabelText('Bild des Layers'), { target: { files: [png()] } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Mit Bild speichern' }));
    });
    expect(within(dialog).getByRole('alert').textContent).toBe('Die Datei ist kein Bild.');
  });

  // As svc-imaging draws them: base over every picture, one matching ad per picture in turn, offline instead of it.
  it('says what each layer group does, and the offline dialog that its image replaces the picture', async () => {
    await openPage();
    const group = (name: RegExp) => screen.getByRole('region', { name });
    expect(
      await within(await screen.findByRole('region', { name: /Basis-Layer/ })).findByText(
        /^Wird über jedes Bild gelegt, z\. B\. ein Logo/,
      ),
    ).toBeTruthy();
    expect(
      within(group(/Zeit-Layer/)).getByText(/Bei drei Werbungen erscheint jede auf jedem dritten Bild\./),
    ).toBeTruthy();
    expect(
      within(group(/Offline-Layer/)).getByText(
        /^Ersetzt das aktuelle Bild, solange die Kamera offline ist: drei Intervalle lang nichts geliefert oder zweimal/,
      ),
    ).toBeTruthy();

    const hintOf = (level: string) => {
      fireEvent.click(screen.getByRole('button', { name: `Layer hinzufügen (${level})` }));
      const dialog = screen.getByRole('dialog', { name: `${level}: neuer Layer` });
      const input = within(dialog).getByLabelText('Bild des Layers');
      const hint = document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent ?? '';
      fireEvent.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));
      return hint;
    };
    expect(hintOf('Basis-Layer')).toMatch(/wird über das Kamerabild gelegt\.$/);
    expect(hintOf('Zeit-Layer')).toMatch(/wird über das Kamerabild gelegt, wenn die Werbung an der Reihe ist\.$/);
    const offline = hintOf('Offline-Layer');
    expect(offline).toMatch(/^Ersetzt das Kamerabild, solange die Kamera offline ist/);
    expect(offline).not.toMatch(/über das Kamerabild gelegt/);
  });

  it('deletes a layer after confirmation', async () => {
    const { fake } = await openPage({ '/api/Referer/DeleteLayer/layer': () => textResponse('true') });
    fireEvent.click(await screen.findByRole('button', { name: 'Layer 11 löschen' }));
    await act(async () => {
      fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Löschen' }));
    });
    expect(queryOf(fake.requestsTo('/api/Referer/DeleteLayer/layer')[0]?.url ?? '')).toEqual({
      layerId: '11',
      cameraId: '3',
    });
    expect(within(baseGroup()).getByText('Keine Layer.')).toBeTruthy();
  });
});
