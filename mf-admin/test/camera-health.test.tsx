import type { Webcam } from '@lakecams/contracts';
import { jsonResponse } from '@lakecams/session/testing';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CameraAdministrationPage } from '../src/pages/camera-administration-page.tsx';
import { adminSession, renderPage, textResponse } from './admin-test-kit.tsx';

const webcam = (id: number, name: string): Webcam => ({
  id,
  name,
  pattern: `https://cams.example/${id}.jpg`,
  distance: 2,
  angle: 60,
  intervalMin: 5,
  webcamType: 'STATIC',
});
const CAMERAS = [
  webcam(1, 'Seedamm'),
  webcam(2, 'Ufenau'),
  webcam(3, 'Stäfa'),
  webcam(4, 'Männedorf'),
  webcam(5, 'Neu'),
];
const health = (webcamId: number, state: string, since: string | null, reason: string | null = null) => ({
  webcamId,
  name: `camera ${webcamId}`,
  paused: false,
  health: { state, since, reason },
});

describe('camera administration: each camera’s health', () => {
  afterEach(cleanup);

  it('shows a badge: OK, late, failing or offline since when (Zurich time)', async () => {
    const fake = await adminSession({
      '/api/Webcam/GetCameras': () => jsonResponse(CAMERAS),
      '/api/News/News/news': () => textResponse(''),
      '/api/Jobs/health': () =>
        jsonResponse([
          health(1, 'ok', null),
          health(2, 'failing', '2026-11-27T07:50:00.000Z', 'HTTP 503'),
          health(3, 'late', '2026-06-30T22:15:00.000Z'),
          health(4, 'offline', '2026-11-27T06:05:00.000Z', 'silent'),
        ]),
    });
    renderPage(fake.session, '/edit/webcams', <CameraAdministrationPage />);
    const table = await screen.findByRole('table');
    const badge = async (name: string) => {
      const row = within(table).getByText(name).closest('tr') as HTMLElement;
      return (await within(row).findByText(/^(OK|Verspätet|Fehler|Offline|–)/)) as HTMLElement;
    };
    expect((await badge('Seedamm')).textContent).toBe('OK');
    expect((await badge('Ufenau')).textContent).toBe('Fehler seit 27.11.2026, 08:50');
    expect((await badge('Ufenau')).title).toBe('HTTP 503');
    // Summer time: two hours ahead of UTC, past midnight.
    expect((await badge('Stäfa')).textContent).toBe('Verspätet seit 01.07.2026, 00:15');
    expect((await badge('Männedorf')).textContent).toBe('Offline seit 27.11.2026, 07:05');
    expect((await badge('Männedorf')).title).toBe('keine Lieferung');
    // A camera the health list does not know yet.
    expect((await badge('Neu')).textContent).toBe('–');
  });
});
