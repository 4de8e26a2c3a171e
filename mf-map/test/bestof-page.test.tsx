import type { CameraBestOf } from '@lakecams/contracts';
import { SessionContext } from '@lakecams/session';
import { createTestSession, jsonResponse, testUser } from '@lakecams/session/testing';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MapRoutes } from '../src/map-routes.tsx';
import { image, renderAt, stubApi, webcam } from './fixtures.tsx';

// jsdom has <dialog> but neither showModal nor close.
beforeAll(() => {
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

const TODAY = '2026-11-22';
const best = (camera: string, webcamId: number, name: string, extra: Partial<CameraBestOf> = {}): CameraBestOf => ({
  camera,
  webcamId,
  name,
  score: 71.4,
  chosenBy: 'score',
  ...extra,
});
/** The archive: nothing on the 19th and 20th, and before the 18th only the 30th of October. */
const DAYS: Record<string, CameraBestOf[]> = {
  [TODAY]: [best('Rapperswil-Seedamm', 1, '202611221220'), best('Staefa_Hafen', 4, '202611220940')],
  '2026-11-21': [best('Rapperswil-Seedamm', 1, '202611211610', { chosenBy: 'admin' })],
  '2026-11-18': [best('Staefa_Hafen', 4, '202611180810')],
  '2026-10-30': [best('Rapperswil-Seedamm', 1, '202610301505')],
};
/** What each camera's calendar holds. */
const CAMERA_DAYS: Record<string, string[]> = {
  'Rapperswil-Seedamm': ['2026-10-30', '2026-11-21', TODAY],
  Staefa_Hafen: ['2026-11-18', TODAY],
  'Ohne-Bild': [],
};

function stubBestOf({ calendar = true } = {}) {
  const chosen: string[] = [];
  const fetch = stubApi({
    '/api/Webcam/GetBestOfDay': (url) => {
      const day = url.searchParams.get('day') ?? TODAY;
      return Response.json({ day, today: TODAY, pictures: DAYS[day] ?? [] });
    },
    '/api/Webcam/GetCameras': () =>
      Response.json(Object.keys(CAMERA_DAYS).map((name, index) => webcam(index + 1, name))),
    '/api/Webcam/GetImageDays': (url) => {
      if (!calendar) return Response.json({ status: 503, message: 'down' }, { status: 503 });
      const name = url.searchParams.get('name') ?? '';
      const month = url.searchParams.get('month') ?? '';
      const days = CAMERA_DAYS[name] ?? [];
      return Response.json({
        camera: name,
        month,
        days: days.filter((day) => day.startsWith(month)),
        first: days[0] ?? null,
        last: days.at(-1) ?? null,
      });
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

const dayButton = (name: RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement;
/** The buttons wait for the days with pictures around the shown one. */
const stepsKnown = () =>
  waitFor(() => {
    if (dayButton(/Vorheriger Tag/).disabled && dayButton(/Nächster Tag/).disabled) throw new Error('still looking');
  });
const press = async (name: RegExp) => {
  await waitFor(() => expect(dayButton(name).disabled).toBe(false));
  fireEvent.click(dayButton(name));
};

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
    // In the first screen: loaded at once, the first one first, its box set (docs/decisions.md, "Card pictures in
    // the first screen").
    const pictures = screen.getAllByRole('img');
    expect(pictures.map((img) => [img.getAttribute('loading'), img.getAttribute('fetchpriority')])).toEqual([
      ['eager', 'high'],
      ['eager', null],
    ]);
    expect(pictures.map((img) => `${img.getAttribute('width')}×${img.getAttribute('height')}`)).toEqual([
      '480×270',
      '480×270',
    ]);
    expect(screen.getAllByText('Bewertung 71 / 100')).toHaveLength(2);
    // Nothing after today.
    await stepsKnown();
    expect(dayButton(/Nächster Tag/).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Anderes Bild wählen' })).toBeNull();
  });

  it('steps only to days with pictures, back to the first and forward again up to today', async () => {
    stubBestOf();
    await renderAt('/bestof');
    await press(/Vorheriger Tag/);
    await screen.findByText('Samstag, 21. November 2026');
    expect(screen.getByText('von der Redaktion gewählt')).toBeTruthy();
    expect(cardLinks().map((link) => link.getAttribute('href'))).toEqual(['/webcam/Rapperswil-Seedamm?t=202611211610']);
    // The 20th and 19th have no pictures: the button skips them.
    await press(/Vorheriger Tag/);
    await screen.findByText('Mittwoch, 18. November 2026');
    // Into the month before.
    await press(/Vorheriger Tag/);
    await screen.findByText('Freitag, 30. Oktober 2026');
    await stepsKnown();
    expect(dayButton(/Vorheriger Tag/).disabled).toBe(true);
    await press(/Nächster Tag/);
    await screen.findByText('Mittwoch, 18. November 2026');
    await press(/Nächster Tag/);
    await screen.findByText('Samstag, 21. November 2026');
    await press(/Nächster Tag/);
    await screen.findByText('Heute, Sonntag, 22. November 2026');
    expect(screen.queryByText('Für diesen Tag gibt es keine Bilder.')).toBeNull();
  });

  it('opens a day named in the address', async () => {
    stubBestOf();
    await renderAt('/bestof?tag=2026-11-21');
    await screen.findByText('Samstag, 21. November 2026');
  });

  it('says a day long before the archive has no pictures and offers its first day', async () => {
    stubBestOf();
    await renderAt('/bestof?tag=2020-01-01');
    await screen.findByText('Mittwoch, 1. Januar 2020');
    expect(screen.getByText('Für diesen Tag gibt es keine Bilder.')).toBeTruthy();
    await screen.findByText('Das Archiv beginnt am Freitag, 30. Oktober 2026.');
    const offer = screen.getByRole('link', { name: 'Bilder vom Freitag, 30. Oktober 2026 ansehen' });
    expect(offer.getAttribute('href')).toBe('/bestof?tag=2026-10-30');
    expect(dayButton(/Vorheriger Tag/).disabled).toBe(true);
    fireEvent.click(offer);
    await screen.findByText('Freitag, 30. Oktober 2026');
    expect(cardLinks().map((link) => link.getAttribute('href'))).toEqual(['/webcam/Rapperswil-Seedamm?t=202610301505']);
  });

  it('says a day after the archive has no pictures and offers its last day', async () => {
    stubBestOf();
    await renderAt('/bestof?tag=2030-06-01');
    await screen.findByText('Die neusten Bilder sind vom Sonntag, 22. November 2026.');
    expect(
      screen.getByRole('link', { name: 'Bilder vom Sonntag, 22. November 2026 ansehen' }).getAttribute('href'),
    ).toBe('/bestof');
    expect(dayButton(/Nächster Tag/).disabled).toBe(true);
    await press(/Vorheriger Tag/);
    await screen.findByText('Heute, Sonntag, 22. November 2026');
  });

  it('offers the nearer day with pictures for an empty day inside the archive', async () => {
    stubBestOf();
    await renderAt('/bestof?tag=2026-11-20');
    await screen.findByText('Für diesen Tag gibt es keine Bilder.');
    // The 21st is one day away, the 18th two.
    await screen.findByRole('link', { name: 'Bilder vom Samstag, 21. November 2026 ansehen' });
    expect(screen.queryByText(/Das Archiv beginnt|Die neusten Bilder/)).toBeNull();
    await press(/Vorheriger Tag/);
    await screen.findByText('Mittwoch, 18. November 2026');
  });

  it('steps by plain days when the days with pictures cannot be looked up', async () => {
    stubBestOf({ calendar: false });
    await renderAt('/bestof?tag=2026-11-21');
    await press(/Vorheriger Tag/);
    await screen.findByText('Freitag, 20. November 2026');
    expect(screen.getByText('Für diesen Tag gibt es keine Bilder.')).toBeTruthy();
    await press(/Nächster Tag/);
    await screen.findByText('Samstag, 21. November 2026');
  });

  it('shows today for a day that is not on the calendar', async () => {
    stubBestOf();
    await renderAt('/bestof?tag=2026-02-30');
    await screen.findByText('Heute, Sonntag, 22. November 2026');
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
    // The day's pictures open in a dialog, the current best marked.
    const dialog = await screen.findByRole('dialog', { name: 'Bild des Tages von Rapperswil-Seedamm wählen' });
    const current = await within(dialog).findByRole('button', { name: '12:20 · aktuell' });
    expect(current.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(within(dialog).getByRole('button', { name: '12:40' }));
    await waitFor(() => expect(chosen).toEqual(['202611221240']));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
