import type { CameraBestOf } from '@lakecams/contracts';
import { SessionContext } from '@lakecams/session';
import { createTestSession, jsonResponse, testUser } from '@lakecams/session/testing';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MapRoutes } from '../src/map-routes.tsx';
import { image, renderAt, stubApi } from './fixtures.tsx';

const TODAY = '2026-11-22';
const best = (camera: string, webcamId: number, name: string, extra: Partial<CameraBestOf> = {}): CameraBestOf => ({
  camera,
  webcamId,
  name,
  score: 71.4,
  chosenBy: 'score',
  ...extra,
});
const DAYS: Record<string, CameraBestOf[]> = {
  [TODAY]: [best('Rapperswil-Seedamm', 1, '202611221220'), best('Staefa_Hafen', 4, '202611220940')],
  '2026-11-21': [best('Rapperswil-Seedamm', 1, '202611211610', { chosenBy: 'admin' })],
  '2026-11-20': [],
};

function stubBestOf() {
  const chosen: string[] = [];
  const fetch = stubApi({
    '/api/Webcam/GetBestOfDay': (url) => {
      const day = url.searchParams.get('day') ?? TODAY;
      return Response.json({ day, today: TODAY, pictures: DAYS[day] ?? [] });
    },
    '/api/Webcam/GetImageHistory': () =>
      Response.json({
        camera: 'Rapperswil-Seedamm',
        day: TODAY,
        days: [TODAY],
        images: ['202611221200', '202611221220', '202611221240'].map((name) => image(1, name)),
      }),
    '/api/Webcam/SetBestOf': (url) => {
      chosen.push(`${url.searchParams.get('image') ?? 'score'}`);
      return Response.json({ name: url.searchParams.get('image') ?? '202611221220', score: 50, chosenBy: 'admin' });
    },
  });
  return { fetch, chosen };
}

const cardLinks = () => screen.getAllByRole('link').filter((link) => link.getAttribute('href')?.startsWith('/webcam/'));

describe('the Bilder des Tages page', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the best picture of every camera today, each card opening the camera at that moment', async () => {
    stubBestOf();
    await renderAt('/bestof');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Bilder des Tages');
    await screen.findByText('Heute, Sonntag, 22. November 2026');
    expect(cardLinks().map((link) => link.getAttribute('href'))).toEqual([
      '/webcam/Rapperswil-Seedamm?t=202611221220',
      '/webcam/Staefa_Hafen?t=202611220940',
    ]);
    const picture = screen.getByRole('img', { name: 'Bestes Bild der Webcam Rapperswil-Seedamm, 12:20 Uhr' });
    expect(picture.getAttribute('src')).toBe('/api/Image/Get/camera/Rapperswil-Seedamm/202611221220.jpg');
    expect(screen.getAllByText('Bewertung 71 / 100')).toHaveLength(2);
    // Nothing after today.
    expect((screen.getByRole('button', { name: /Nächster Tag/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Anderes Bild wählen' })).toBeNull();
  });

  it('goes back day by day and forward again up to today', async () => {
    stubBestOf();
    await renderAt('/bestof');
    fireEvent.click(await screen.findByRole('button', { name: /Vorheriger Tag/ }));
    await screen.findByText('Samstag, 21. November 2026');
    expect(screen.getByText('von der Redaktion gewählt')).toBeTruthy();
    expect(cardLinks().map((link) => link.getAttribute('href'))).toEqual(['/webcam/Rapperswil-Seedamm?t=202611211610']);
    fireEvent.click(screen.getByRole('button', { name: /Vorheriger Tag/ }));
    await screen.findByText('Für diesen Tag gibt es keine Bilder.');
    fireEvent.click(screen.getByRole('button', { name: /Nächster Tag/ }));
    fireEvent.click(await screen.findByRole('button', { name: /Nächster Tag/ }));
    await screen.findByText('Heute, Sonntag, 22. November 2026');
  });

  it('opens a day named in the address', async () => {
    stubBestOf();
    await renderAt('/bestof?tag=2026-11-21');
    await screen.findByText('Samstag, 21. November 2026');
  });

  it('lets an admin choose another picture of the day', async () => {
    const { chosen } = stubBestOf();
    const { session } = await createTestSession({
      user: testUser(),
      roles: ['Admin'],
      routes: {
        '/api/Webcam/SetBestOf': ({ url }) => {
          const image = new URL(url, 'http://portal.test').searchParams.get('image');
          chosen.push(image ?? 'score');
          return jsonResponse({ name: image, score: 50, chosenBy: 'admin' });
        },
      },
    });
    render(
      <SessionContext.Provider value={session}>
        <MemoryRouter initialEntries={['/bestof']}>
          <MapRoutes />
        </MemoryRouter>
      </SessionContext.Provider>,
    );
    const [first] = await screen.findAllByRole('button', { name: 'Anderes Bild wählen' });
    fireEvent.click(first as HTMLElement);
    fireEvent.click(await screen.findByRole('button', { name: /^12:40/ }));
    await waitFor(() => expect(chosen).toEqual(['202611221240']));
  });
});
