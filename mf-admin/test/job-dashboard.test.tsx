import { createApiClient, EMPTY_AUTH_STATE } from '@lakecams/session';
import { jsonResponse } from '@lakecams/session/testing';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { dayText, JobDashboard, pruneResult, sizeText } from '../src/jobs/job-dashboard.tsx';
import type { CameraJobs, JobState, TimelapseJob } from '../src/api/jobs-api.ts';

const NOW = '2026-11-25T10:00:00.000Z';

function camera(overrides: Partial<CameraJobs> & Pick<CameraJobs, 'webcamId' | 'name'>): CameraJobs {
  return {
    intervalMin: 5,
    paused: false,
    offline: null,
    health: { state: 'ok', since: null, reason: null },
    nextRun: '2026-11-25T10:05:00.000Z',
    lastRun: {
      name: '202611251100',
      status: 'done',
      startedAt: NOW,
      durationMs: 412,
      error: null,
      attempt: 1,
      claimedBy: 'replica-a',
    },
    ...overrides,
  };
}

function jobState(overrides: Partial<JobState> = {}): JobState {
  return {
    generatedAt: NOW,
    replica: 'replica-a',
    cameras: [
      camera({ webcamId: 1, name: 'Rapperswil-Seedamm' }),
      camera({
        webcamId: 2,
        name: 'Ufenau',
        health: { state: 'failing', since: '2026-11-25T09:50:00.000Z', reason: 'Camera unreachable: timeout' },
        lastRun: {
          name: '202611251100',
          status: 'failed',
          startedAt: NOW,
          durationMs: 5003,
          error: 'Camera unreachable: timeout',
          attempt: 2,
          claimedBy: 'replica-a',
        },
      }),
      camera({ webcamId: 3, name: 'Stäfa', paused: true }),
      camera({
        webcamId: 4,
        name: 'Männedorf',
        offline: 'frozen',
        health: { state: 'offline', since: '2026-11-25T09:35:00.000Z', reason: 'frozen' },
      }),
      camera({ webcamId: 5, name: 'Halbinsel-Au', lastRun: null }),
    ],
    failures: [
      { camera: 'Ufenau', tick: '202611251100', startedAt: NOW, error: 'Camera unreachable: timeout', attempt: 2 },
    ],
    prunes: [
      {
        tick: '20261125',
        status: 'done',
        startedAt: NOW,
        durationMs: 80,
        error: null,
        detail: { allFrom: '20261118', hourlyFrom: '20261026', captures: 12, days: 3 },
      },
    ],
    ...overrides,
  };
}

const CLIP: TimelapseJob = {
  camera: 'Rapperswil-Seedamm',
  day: '20261124',
  level: 'POOR',
  status: 'running',
  progress: 40,
  frames: 288,
  startedAt: NOW,
  durationMs: null,
  bytes: null,
  claimedBy: 'replica-a',
  error: null,
};

interface Sent {
  method: string;
  path: string;
  headers: Headers;
}

/** The dashboard over fake Jobs routes, with the frame's client: no bearer token, the cookie goes along. */
function renderDashboard(answers: Record<string, (sent: Sent) => Response | Promise<Response>>, refreshMs = 60_000) {
  const sent: Sent[] = [];
  const api = createApiClient({
    getState: () => EMPTY_AUTH_STATE,
    readCookie: (name) => (name === 'XSRF-TOKEN' ? 'xsrf-1' : null),
    fetch: (async (url: string, init: RequestInit = {}) => {
      const parsed = new URL(url, 'http://test.invalid');
      const request = {
        method: init.method ?? 'GET',
        path: parsed.pathname + parsed.search,
        headers: new Headers(init.headers),
      };
      sent.push(request);
      const answer = answers[`${request.method} ${parsed.pathname}`];
      return answer ? answer(request) : jsonResponse({ statusCode: 404, error: 'Not Found', message: 'nope' }, 404);
    }) as typeof fetch,
  });
  render(<JobDashboard api={api} refreshMs={refreshMs} />);
  return sent;
}

const rowOf = (name: string) => {
  const cell = within(screen.getByRole('table', { name: /jeder Kamera/ })).getByText(name);
  return cell.closest('tr') as HTMLElement;
};

describe('the job dashboard', () => {
  afterEach(cleanup);

  it('shows each camera with its schedule, last run and status, then failures, clips and pruning', async () => {
    renderDashboard({
      'GET /api/Jobs/state': () => jsonResponse(jobState()),
      'GET /api/Jobs/timelapses': () => jsonResponse([CLIP]),
    });
    await screen.findByText(/^5 Kameras · Stand /);
    const cells = (name: string) => within(rowOf(name)).getAllByRole('cell');
    expect(cells('Rapperswil-Seedamm').map((cell) => cell.dataset.label)).toEqual([
      'Kamera',
      'Intervall',
      'Letzter Lauf',
      'Dauer',
      'Status',
      'Zustand',
      'Nächster Lauf',
      undefined,
    ]);
    expect(cells('Rapperswil-Seedamm')[1]?.textContent).toBe('5 min');
    expect(cells('Ufenau')[2]?.textContent).toMatch(/Versuch 2 · replica-a$/);
    expect(cells('Halbinsel-Au')[2]?.textContent).toBe('–');
    expect(cells('Rapperswil-Seedamm')[3]?.textContent).toBe('412 ms');
    const status = (name: string) => rowOf(name).querySelector('.job-status')?.textContent;
    expect(status('Rapperswil-Seedamm')).toBe('OK');
    expect(status('Ufenau')).toBe('Fehler');
    expect(within(rowOf('Ufenau')).getByText('Camera unreachable: timeout')).toBeTruthy();
    expect(status('Stäfa')).toBe('Pausiert');
    expect(cells('Stäfa')[6]?.textContent).toBe('–');
    // The health with since when, in Zurich time; the reason on hovering.
    const health = (name: string) => rowOf(name).querySelector('.health-badge');
    expect(health('Rapperswil-Seedamm')?.textContent).toBe('OK');
    expect(health('Ufenau')?.textContent).toBe('Fehler seit 25.11.2026, 10:50');
    expect(health('Ufenau')?.getAttribute('title')).toBe('Camera unreachable: timeout');
    expect(health('Männedorf')?.textContent).toBe('Offline seit 25.11.2026, 10:35');
    expect(health('Männedorf')?.getAttribute('title')).toBe('Bild eingefroren');
    expect(status('Männedorf')).toBe('Offline (Bild eingefroren)');
    expect(status('Halbinsel-Au')).toBe('Wartet');
    expect(within(rowOf('Stäfa')).getByRole('button', { name: 'Fortsetzen Stäfa' })).toBeTruthy();
    expect(within(rowOf('Ufenau')).getByRole('button', { name: 'Pausieren Ufenau' })).toBeTruthy();

    const failures = screen.getByRole('region', { name: 'Letzte Fehler' });
    expect(within(failures).getAllByRole('row')[1]?.textContent).toContain('Camera unreachable: timeout');
    const clips = screen.getByRole('region', { name: 'Zeitraffer' });
    const clip = within(clips).getAllByRole('row')[1] as HTMLElement;
    expect(clip.textContent).toContain('24.11.2026');
    expect(clip.textContent).toContain('40 % von 288 Bildern');
    expect((within(clip).getByRole('progressbar') as HTMLProgressElement).value).toBe(40);
    const prunes = screen.getByRole('region', { name: 'Aufräumen' });
    expect(within(prunes).getAllByRole('row')[1]?.textContent).toContain('12 Aufnahmen entfernt, 3 Tage ausgedünnt');
  });

  it('says so when there is nothing to list yet', async () => {
    renderDashboard({
      'GET /api/Jobs/state': () => jsonResponse(jobState({ failures: [], prunes: [] })),
      'GET /api/Jobs/timelapses': () => jsonResponse([]),
    });
    expect(await screen.findByText('Keine Fehler.')).toBeTruthy();
    expect(screen.getByText('Noch kein Zeitraffer.')).toBeTruthy();
    expect(screen.getByText('Noch kein Lauf.')).toBeTruthy();
  });

  it('pauses and resumes a camera with the anti-forgery header and no bearer token, and shows the change', async () => {
    let paused = false;
    const sent = renderDashboard({
      'GET /api/Jobs/state': () =>
        jsonResponse(jobState({ cameras: [camera({ webcamId: 1, name: 'Rapperswil-Seedamm', paused })] })),
      'GET /api/Jobs/timelapses': () => jsonResponse([]),
      'POST /api/Jobs/pause': () => {
        paused = true;
        return new Response('true');
      },
      'POST /api/Jobs/resume': () => {
        paused = false;
        return new Response('true');
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Pausieren Rapperswil-Seedamm' }));
    await screen.findByRole('button', { name: 'Fortsetzen Rapperswil-Seedamm' });
    expect(rowOf('Rapperswil-Seedamm').querySelector('.job-status')?.textContent).toBe('Pausiert');
    const pause = sent.find((request) => request.method === 'POST');
    expect(pause?.path).toBe('/api/Jobs/pause?webcamId=1');
    expect(pause?.headers.get('X-XSRF-TOKEN')).toBe('xsrf-1');
    expect(sent.every((request) => !request.headers.has('Authorization'))).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Fortsetzen Rapperswil-Seedamm' }));
    await screen.findByRole('button', { name: 'Pausieren Rapperswil-Seedamm' });
  });

  it('captures now, and says in German in the camera’s row what came of it, announced', async () => {
    let answer = () =>
      jsonResponse(
        { statusCode: 409, error: 'Conflict', message: 'This camera was captured this minute already' },
        409,
      );
    const sent = renderDashboard({
      'GET /api/Jobs/state': () => jsonResponse(jobState()),
      'GET /api/Jobs/timelapses': () => jsonResponse([]),
      'POST /api/Jobs/retry': () => answer(),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Jetzt aufnehmen Ufenau' }));
    // Beside the button that was clicked, in a live region, not at the top of the page.
    const result = () => within(rowOf('Ufenau')).getByRole('status');
    await waitFor(() => expect(result().textContent).toBe('Diese Kamera wurde in dieser Minute schon aufgenommen.'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(within(rowOf('Rapperswil-Seedamm')).getByRole('status').textContent).toBe('');
    expect(sent.some((request) => request.path === '/api/Jobs/retry?webcamId=2')).toBe(true);

    answer = () => jsonResponse({ outcome: 'failed', error: 'Camera unreachable: timeout' });
    fireEvent.click(screen.getByRole('button', { name: 'Jetzt aufnehmen Ufenau' }));
    await waitFor(() =>
      expect(result().textContent).toBe('Die Aufnahme von Ufenau hat nicht geklappt: Camera unreachable: timeout'),
    );

    answer = () => jsonResponse({ outcome: 'captured', image: { webcamId: 2, name: '202611251101' } });
    fireEvent.click(screen.getByRole('button', { name: 'Jetzt aufnehmen Ufenau' }));
    await waitFor(() => expect(result().textContent).toBe('Neues Bild von Ufenau aufgenommen.'));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows nothing of the jobs to a user who is no administrator', async () => {
    renderDashboard({
      'GET /api/Jobs/state': () =>
        jsonResponse({ statusCode: 403, error: 'Forbidden', message: 'Role Admin required' }, 403),
      'GET /api/Jobs/timelapses': () =>
        jsonResponse({ statusCode: 403, error: 'Forbidden', message: 'Role Admin required' }, 403),
    });
    expect((await screen.findByRole('alert')).textContent).toBe('Diese Seite ist Administratoren vorbehalten.');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('asks a visitor whose sign-in ran out to sign in again', async () => {
    renderDashboard({
      'GET /api/Jobs/state': () =>
        jsonResponse({ statusCode: 401, error: 'Unauthorized', message: 'No valid access token' }, 401),
    });
    expect((await screen.findByRole('alert')).textContent).toMatch(/Bitte melden Sie sich als Administrator an/);
  });

  it('reads the state again every few seconds and keeps the last one while a read fails', async () => {
    let reads = 0;
    // The third read answers once the test has seen the failed second one, however slowly the page renders.
    let seenFailure = () => {};
    const failureSeen = new Promise<void>((resolve) => {
      seenFailure = resolve;
    });
    renderDashboard(
      {
        'GET /api/Jobs/state': async () => {
          reads += 1;
          if (reads === 2)
            return jsonResponse(
              { statusCode: 503, error: 'Service Unavailable', message: 'Database unavailable, please retry shortly' },
              503,
            );
          if (reads === 1) return jsonResponse(jobState({ cameras: jobState().cameras.slice(0, 1) }));
          // Reads after the failure (several, at 50 ms, while the test looks) all answer three cameras.
          await failureSeen;
          return jsonResponse(jobState({ cameras: jobState().cameras.slice(0, 3) }));
        },
        'GET /api/Jobs/timelapses': () => jsonResponse([]),
      },
      50,
    );
    await screen.findByText(/^1 Kameras/);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Der Dienst ist gerade nicht erreichbar. Bitte versuchen Sie es gleich noch einmal.',
    );
    expect(screen.getByText(/^1 Kameras/)).toBeTruthy();
    seenFailure();
    await screen.findByText(/^3 Kameras/);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('the job dashboard’s texts', () => {
  it('writes days, sizes and pruning results as the dashboard shows them', () => {
    expect(dayText('20261125')).toBe('25.11.2026');
    expect(sizeText(null)).toBe('–');
    expect(sizeText(720_400)).toBe('721 kB');
    expect(sizeText(2_345_678)).toBe('2.35 MB');
    const run = { tick: '20261125', status: 'failed', startedAt: NOW, durationMs: 3, detail: null } as const;
    expect(pruneResult({ ...run, error: 'disk full' })).toBe('disk full');
    expect(pruneResult({ ...run, error: null })).toBe('–');
  });
});
