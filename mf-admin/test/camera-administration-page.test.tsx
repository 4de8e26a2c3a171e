import type { Webcam } from '@lakecams/contracts';
import { jsonResponse } from '@lakecams/session/testing';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CameraAdministrationPage } from '../src/pages/camera-administration-page.tsx';
import { adminSession, queryOf, renderPage, textResponse } from './admin-test-kit.tsx';

const au: Webcam = {
  id: 3,
  name: 'Halbinsel-Au',
  pattern: 'https://cams.example/au.jpg',
  distance: 2.5,
  angle: 70,
  intervalMin: 5,
  webcamType: 'STATIC',
};

const routes = (cameras: Webcam[] = [au]) => ({
  '/api/Webcam/GetCameras': () => jsonResponse(cameras),
  '/api/News/News/news': () => textResponse('Seenachtfest am Samstag'),
});

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
function type(label: string, value: string) {
  fireEvent.change(field(label), { target: { value } });
  fireEvent.blur(field(label));
}

async function openPage(extra = {}, roles = ['Admin']) {
  const fake = await adminSession({ ...routes(), ...extra }, roles);
  renderPage(fake.session, '/edit/webcams', <CameraAdministrationPage />);
  return fake;
}

describe('camera administration', () => {
  afterEach(cleanup);

  it('lists the cameras with every column and row action', async () => {
    await openPage();
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Distanz km', 'Blickwinkel', 'Intervall', 'Typ', 'Pattern', 'Zustand', 'Aktionen']);
    const cells = [...(within(table).getByText('Halbinsel-Au').closest('tr') as HTMLElement).querySelectorAll('td')];
    expect(cells.slice(0, 6).map((td) => td.textContent)).toEqual([
      'Halbinsel-Au',
      '2.5',
      '70°',
      '5 min',
      'STATIC',
      'https://cams.example/au.jpg',
    ]);
    expect(screen.getByRole('link', { name: 'Ansehen Halbinsel-Au' }).getAttribute('href')).toBe(
      '/webcam/Halbinsel-Au',
    );
    for (const action of [
      'Berechtigungen',
      'Referer',
      'Konfiguration',
      'Position',
      'Bearbeiten',
      'Bildquelle',
      'Bild hochladen',
      'Entfernen',
    ]) {
      expect(screen.getByRole('button', { name: `${action} Halbinsel-Au` })).toBeTruthy();
    }
    expect((await screen.findByLabelText('Text des Banners')).textContent).toBe('Seenachtfest am Samstag');
  });

  it('puts the actions of a row behind one "Aktionen" button on a phone, every action still reachable', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 48rem)',
      addEventListener() {},
      removeEventListener() {},
    }));
    try {
      await openPage();
      const menu = await screen.findByRole('button', { name: 'Aktionen für Halbinsel-Au' });
      expect(menu.getAttribute('aria-expanded')).toBe('false');
      expect(screen.queryByRole('button', { name: 'Bearbeiten Halbinsel-Au' })).toBeNull();
      fireEvent.click(menu);
      for (const action of [
        'Berechtigungen',
        'Referer',
        'Konfiguration',
        'Position',
        'Bildquelle',
        'Bild hochladen',
        'Entfernen',
      ]) {
        expect(screen.getByRole('button', { name: `${action} Halbinsel-Au` })).toBeTruthy();
      }
      expect(screen.getByRole('link', { name: 'Ansehen Halbinsel-Au' })).toBeTruthy();
      fireEvent.keyDown(document, { key: 'Escape' });
      expect(menu.getAttribute('aria-expanded')).toBe('false');
      expect(document.activeElement).toBe(menu);
      // Choosing an action closes the menu and opens its dialog.
      fireEvent.click(menu);
      fireEvent.click(screen.getByRole('button', { name: 'Bearbeiten Halbinsel-Au' }));
      expect(menu.getAttribute('aria-expanded')).toBe('false');
      expect(await screen.findByRole('dialog')).toBeTruthy();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('tells a signed-in non-admin that the page is not for them', async () => {
    await openPage({}, []);
    expect(screen.getByText('Diese Seite ist Administratoren vorbehalten.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('adds a camera with id 0 and numbers, and shows the server’s message when the name is taken', async () => {
    let answer = () =>
      jsonResponse({ statusCode: 409, error: 'Conflict', message: 'A camera named Au exists already' }, 409);
    const fake = await openPage({ '/api/Webcam/Set': () => answer() });
    fireEvent.click(await screen.findByRole('button', { name: 'Webcam hinzufügen' }));
    const dialog = screen.getByRole('dialog', { name: 'Webcam hinzufügen' });
    // Required fields say so on a submit attempt; nothing is sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(within(dialog).getByText('Name wird benötigt')).toBeTruthy();
    expect(within(dialog).getByText('Pattern (URL) wird benötigt')).toBeTruthy();
    type('Distanz (km)', '21');
    expect(within(dialog).getByText('Distance must be between 1 and 20 km')).toBeTruthy();
    expect(fake.requestsTo('/api/Webcam/Set')).toHaveLength(0);

    type('Name', 'Au');
    type('Pattern (Bild-URL)', 'https://cams.example/au2.jpg');
    type('Distanz (km)', '3.5');
    type('Blickwinkel (°)', '120');
    type('Intervall (Minuten)', '15');
    fireEvent.change(field('Typ'), { target: { value: 'ROTATION' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    });
    expect(fake.requestsTo('/api/Webcam/Set')[0]?.body).toEqual({
      id: 0,
      name: 'Au',
      pattern: 'https://cams.example/au2.jpg',
      distance: 3.5,
      angle: 120,
      intervalMin: 15,
      webcamType: 'ROTATION',
    });
    expect(within(dialog).getByRole('alert').textContent).toBe('Eine Kamera namens Au gibt es schon.');

    answer = () => textResponse('true');
    fake.route('/api/Webcam/GetCameras', () => jsonResponse([au, { ...au, id: 9, name: 'Au' }]));
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByRole('button', { name: 'Bearbeiten Au' })).toBeTruthy();
  });

  it('edits a camera under its own id', async () => {
    const fake = await openPage({ '/api/Webcam/Set': () => textResponse('true') });
    fireEvent.click(await screen.findByRole('button', { name: 'Bearbeiten Halbinsel-Au' }));
    expect(field('Name').value).toBe('Halbinsel-Au');
    type('Intervall (Minuten)', '61');
    expect(screen.getByText('Interval must be between 1 and 60 minutes')).toBeTruthy();
    type('Intervall (Minuten)', '30');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Speichern' }));
    });
    expect(fake.requestsTo('/api/Webcam/Set')[0]?.body).toEqual({ ...au, intervalMin: 30 });
  });

  it('removes a camera after confirmation, sending the webcam as the body', async () => {
    const fake = await openPage({ '/api/Webcam/Delete': () => textResponse('true') });
    fireEvent.click(await screen.findByRole('button', { name: 'Entfernen Halbinsel-Au' }));
    const dialog = screen.getByRole('dialog', { name: 'Webcam Halbinsel-Au entfernen' });
    fake.route('/api/Webcam/GetCameras', () => jsonResponse([]));
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Entfernen' }));
    });
    const [request] = fake.requestsTo('/api/Webcam/Delete');
    expect(request?.method).toBe('DELETE');
    expect(request?.body).toEqual(au);
    expect(await screen.findByText('0 Webcams')).toBeTruthy();
  });

  it('sets the quality for one user or for all others, and removes a configuration', async () => {
    const users = [
      {
        id: 'a0000000-0000-4000-8000-000000000001',
        userName: 'erika1',
        email: 'erika@example.ch',
        firstName: 'Erika',
        lastName: 'M',
        phoneNumber: '',
        emailConfirmed: true,
      },
    ];
    let configurations: unknown[] = [];
    const fake = await openPage({
      '/api/Authenticate/AllUsers': () => jsonResponse(users),
      '/api/Webcam/GetConfiguration/configuration': () => jsonResponse(configurations),
      '/api/Webcam/SetConfiguration/configuration': () => textResponse('true'),
      '/api/Webcam/RemoveConfiguration/configuration': () => textResponse('true'),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Konfiguration Halbinsel-Au' }));
    await screen.findByText('Noch keine Konfiguration.');
    expect(
      screen.getByText(/gilt für angemeldete Benutzer ohne eigene Einstellung. Besucher ohne Konto sehen immer/),
    ).toBeTruthy();
    await screen.findByRole('option', { name: 'erika1 (erika@example.ch)' });
    fireEvent.change(field('Qualität'), { target: { value: 'HIGH' } });
    configurations = [{ id: 8, user: null, quality: 'HIGH', webcam: { id: 3, name: 'Halbinsel-Au' } }];
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Festlegen' }));
    });
    expect(queryOf(fake.requestsTo('/api/Webcam/SetConfiguration/configuration')[0]?.url ?? '')).toEqual({
      webcamId: '3',
      quality: 'HIGH',
    });
    expect((await screen.findByRole('list', { name: 'Konfigurationen' })).textContent).toContain(
      'Alle anderen Benutzer: HIGH',
    );

    fireEvent.change(field('Benutzer'), { target: { value: users[0]?.id } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Festlegen' }));
    });
    expect(queryOf(fake.requestsTo('/api/Webcam/SetConfiguration/configuration')[1]?.url ?? '')).toEqual({
      webcamId: '3',
      userId: users[0]?.id,
      quality: 'HIGH',
    });

    configurations = [];
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Konfiguration von Alle anderen Benutzer entfernen' }));
    });
    expect(queryOf(fake.requestsTo('/api/Webcam/RemoveConfiguration/configuration')[0]?.url ?? '')).toEqual({
      configurationId: '8',
    });
  });

  it('saves the permitted users of a camera', async () => {
    const erika = {
      id: 'a0000000-0000-4000-8000-000000000001',
      userName: 'erika1',
      email: 'erika@example.ch',
      firstName: 'Erika',
      lastName: 'Muster',
      phoneNumber: '',
      emailConfirmed: true,
    };
    const hans = {
      ...erika,
      id: 'a0000000-0000-4000-8000-000000000002',
      userName: 'hans22',
      email: 'hans@example.ch',
      firstName: 'Hans',
    };
    const fake = await openPage({
      '/api/Authenticate/AllUsers': () => jsonResponse([erika, hans]),
      '/api/Webcam/GetUsers/users': () =>
        jsonResponse([{ id: erika.id, userName: 'erika1', email: 'erika@example.ch' }]),
      '/api/Webcam/SetUsers/users': () => textResponse('true'),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Berechtigungen Halbinsel-Au' }));
    const erikaBox = (await screen.findByRole('checkbox', { name: /Erika Muster/ })) as HTMLInputElement;
    expect(erikaBox.checked).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: /Hans Muster/ }));
    fireEvent.click(erikaBox);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Speichern' }));
    });
    const [request] = fake.requestsTo('/api/Webcam/SetUsers/users');
    expect(queryOf(request?.url ?? '')).toEqual({ webcamId: '3' });
    expect(request?.body).toEqual([{ id: hans.id, userName: 'hans22', email: 'hans@example.ch' }]);
    expect(screen.getByText('Die Berechtigungen sind gespeichert.')).toBeTruthy();
  });
});
