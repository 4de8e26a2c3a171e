import { PICTURE_TOO_LARGE_MESSAGE, type Webcam } from '@lakecams/contracts';
import { jsonResponse } from '@lakecams/session/testing';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { today } from '../src/cameras/bookings.ts';
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

async function openDialog(action: string, routes = {}) {
  const fake = await adminSession({
    '/api/Webcam/GetCameras': () => jsonResponse([au]),
    '/api/News/News/news': () => textResponse(''),
    ...routes,
  });
  renderPage(fake.session, '/edit/webcams', <CameraAdministrationPage />);
  fireEvent.click(await screen.findByRole('button', { name: `${action} Halbinsel-Au` }));
  return fake;
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
function type(label: string, value: string) {
  fireEvent.change(input(label), { target: { value } });
  fireEvent.blur(input(label));
}

describe('the referer bookings of a camera', () => {
  afterEach(cleanup);

  const saved = {
    id: 41,
    start: '2026-11-22',
    end: '2026-11-22',
    webcamId: 3,
    quality: 'POOR',
    refererUserId: null,
    refererUserText: null,
  };

  it('starts a new booking today, POOR, no user; appends what the server saved, then replaces it on edit', async () => {
    let answer: unknown = saved;
    const fake = await openDialog('Referer', {
      '/api/Webcam/GetReferers/referers': () => jsonResponse([]),
      '/api/Referer/GetRefererUsers': () =>
        jsonResponse([{ id: 5, userEmail: 'erika@example.ch', url: 'https://partner.ch/' }]),
      '/api/Webcam/SetReferer/referer': () => jsonResponse(answer),
    });
    await screen.findByText('Diese Webcam hat noch keine Buchungen.');
    fireEvent.click(screen.getByRole('button', { name: 'Buchung hinzufügen' }));
    expect(input('Von').value).toBe(today());
    expect(input('Bis').value).toBe(today());
    expect(input('Qualität').value).toBe('POOR');
    expect(input('Referer').value).toBe('');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Buchung speichern' }));
    });
    const [first] = fake.requestsTo('/api/Webcam/SetReferer/referer');
    expect(first?.method).toBe('PUT');
    expect(queryOf(first?.url ?? '')).toEqual({ webcamId: '3' });
    expect(first?.body).toMatchObject({ id: 0, start: today(), end: today(), quality: 'POOR', refererUserId: null });
    const list = screen.getByRole('list', { name: 'Buchungen' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(list.textContent).toContain('22.11.2026 – 22.11.2026, POOR, kein Referer');

    fireEvent.click(within(list).getByRole('button', { name: /bearbeiten$/ }));
    type('Bis', '2026-12-31');
    fireEvent.change(input('Qualität'), { target: { value: 'FULL' } });
    fireEvent.change(input('Referer'), { target: { value: '5' } });
    answer = {
      ...saved,
      end: '2026-12-31',
      quality: 'FULL',
      refererUserId: 5,
      refererUserText: 'erika@example.ch – https://partner.ch/',
    };
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Buchung speichern' }));
    });
    expect(fake.requestsTo('/api/Webcam/SetReferer/referer')[1]?.body).toMatchObject({
      id: 41,
      end: '2026-12-31',
      quality: 'FULL',
      refererUserId: 5,
    });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(list.textContent).toContain('22.11.2026 – 31.12.2026, FULL, erika@example.ch – https://partner.ch/');
  });

  it('refuses a booking that ends before it starts, and removes one', async () => {
    const fake = await openDialog('Referer', {
      '/api/Webcam/GetReferers/referers': () => jsonResponse([saved]),
      '/api/Referer/GetRefererUsers': () => jsonResponse([]),
      '/api/Webcam/RemoveReferer/referer': () => textResponse('true'),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Buchung hinzufügen' }));
    type('Von', '2026-11-10');
    type('Bis', '2026-11-09');
    expect(screen.getByText('Das Ende liegt vor dem Start')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Buchung speichern' }));
    expect(fake.requestsTo('/api/Webcam/SetReferer/referer')).toHaveLength(0);

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /entfernen$/ }));
    });
    expect(queryOf(fake.requestsTo('/api/Webcam/RemoveReferer/referer')[0]?.url ?? '')).toEqual({
      webcamId: '3',
      refererId: '41',
    });
    expect(await screen.findByText('Diese Webcam hat noch keine Buchungen.')).toBeTruthy();
  });
});

describe('the position dialog', () => {
  afterEach(cleanup);

  it('starts at 0 for a camera without a position, validates, resets and saves with the current minute', async () => {
    const fake = await openDialog('Position', {
      '/api/Webcam/GetImages': () => jsonResponse([]),
      '/api/Image/SetPosition/set': () => textResponse('true'),
    });
    expect(((await screen.findByLabelText('Breitengrad (lat)')) as HTMLInputElement).value).toBe('0');
    expect(input('Längengrad (lng)').value).toBe('0');
    expect(input('Blickrichtung (°)').value).toBe('0');
    const save = screen.getByRole('button', { name: 'Position speichern' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);

    type('Breitengrad (lat)', '47.23');
    type('Längengrad (lng)', '11');
    expect(screen.getByText('Longitude must be between 5.9 and 10.5')).toBeTruthy();
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Zurücksetzen' }));
    expect(input('Breitengrad (lat)').value).toBe('0');
    expect(screen.queryByText('Longitude must be between 5.9 and 10.5')).toBeNull();

    type('Breitengrad (lat)', '47.23');
    type('Längengrad (lng)', '8.72');
    type('Blickrichtung (°)', '270');
    await act(async () => {
      fireEvent.click(save);
    });
    const body = fake.requestsTo('/api/Image/SetPosition/set')[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ webcamId: 3, lat: 47.23, lng: 8.72, direction: 270 });
    expect(body.name).toMatch(/^\d{12}$/);
    expect(screen.getByText('Die Position ist gespeichert; sie gilt ab dem nächsten Bild.')).toBeTruthy();
  });

  it('starts from the position the camera has', async () => {
    await openDialog('Position', {
      '/api/Webcam/GetImages': () =>
        jsonResponse([
          { webcam: au, images: [{ lat: 47.21, lng: 8.8, direction: 120, name: '202611221200', webcamId: 3 }] },
        ]),
    });
    expect(((await screen.findByLabelText('Breitengrad (lat)')) as HTMLInputElement).value).toBe('47.21');
    expect(input('Blickrichtung (°)').value).toBe('120');
  });
});

describe('the upload dialog', () => {
  afterEach(cleanup);

  it('sends the chosen picture as the multipart field file', async () => {
    const fake = await openDialog('Bild hochladen', { '/api/Image/Upload': () => textResponse('true') });
    const upload = screen.getByRole('button', { name: 'Hochladen' }) as HTMLButtonElement;
    expect(upload.disabled).toBe(true);
    const picture = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'au.jpg', { type: 'image/jpeg' });
    fireEvent.change(screen.getByLabelText('Bilddatei (JPEG, PNG oder WebP)'), { target: { files: [picture] } });
    await act(async () => {
      fireEvent.click(upload);
    });
    const [request] = fake.requestsTo('/api/Image/Upload');
    expect(queryOf(request?.url ?? '')).toEqual({ webcamId: '3' });
    expect((request?.body as FormData | undefined)?.get('file')).toBeInstanceOf(File);
    expect(request?.headers.get('Content-Type')).toBeNull();
    expect(screen.getByText('Das Bild ist jetzt das aktuelle Bild der Webcam.')).toBeTruthy();
  });

  // The services answer in English; the admin reads German (a name that is no picture, a truncated one, 8K+).
  it.each([
    ['The file is not an image', 400, 'Die Datei ist kein Bild.'],
    [PICTURE_TOO_LARGE_MESSAGE, 413, 'Das Bild ist zu gross: höchstens 7680 × 4320 Pixel.'],
    ['request file too large', 413, 'Die Datei ist zu gross.'],
    ['Something new', 400, 'Something new'],
  ])('says in German why the server refuses the picture (%s)', async (message, status, shown) => {
    await openDialog('Bild hochladen', {
      '/api/Image/Upload': () => jsonResponse({ statusCode: status, error: 'Bad Request', message }, status),
    });
    const picture = new File(['x'], 'x.jpg', { type: 'image/jpeg' });
    fireEvent.change(screen.getByLabelText('Bilddatei (JPEG, PNG oder WebP)'), { target: { files: [picture] } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Hochladen' }));
    });
    expect(screen.getByRole('alert').textContent).toBe(shown);
  });
});

describe('the news text', () => {
  afterEach(cleanup);

  it('is saved trimmed with PUT {text}; empty hides the banner', async () => {
    const fake = await adminSession({
      '/api/Webcam/GetCameras': () => jsonResponse([]),
      '/api/News/News/news': ({ init }) => (init.method === 'PUT' ? textResponse('true') : textResponse('Alt')),
    });
    renderPage(fake.session, '/edit/webcams', <CameraAdministrationPage />);
    const text = (await screen.findByLabelText('Text des Banners')) as HTMLTextAreaElement;
    expect(text.value).toBe('Alt');
    fireEvent.change(text, { target: { value: '  Neu am See  ' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Neuigkeiten speichern' }));
    });
    const put = fake.requestsTo('/api/News/News/news').find((request) => request.method === 'PUT');
    expect(put?.body).toEqual({ text: 'Neu am See' });
    fireEvent.change(text, { target: { value: '' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Neuigkeiten speichern' }));
    });
    expect(screen.getByText('Gespeichert. Das Banner ist ausgeblendet.')).toBeTruthy();
  });
});
