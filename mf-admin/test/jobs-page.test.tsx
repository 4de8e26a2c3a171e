import { SessionContext } from '@lakecams/session';
import { createTestSession, testUser } from '@lakecams/session/testing';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { JobsPage } from '../src/pages/jobs-page.tsx';

function Where() {
  const location = useLocation();
  return <div data-testid="where">{location.pathname + location.search}</div>;
}

async function renderJobs(options: Parameters<typeof createTestSession>[0]) {
  const { session } = await createTestSession(options);
  await session.reloadAccess?.();
  render(
    <SessionContext.Provider value={session}>
      <MemoryRouter initialEntries={['/jobs']}>
        <Routes>
          <Route path="/jobs" element={<JobsPage />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </SessionContext.Provider>,
  );
}

describe('jobs page', () => {
  afterEach(cleanup);

  it('embeds the job dashboard in a frame for administrators', async () => {
    await renderJobs({ user: testUser(), roles: ['Admin'] });
    const frame = await screen.findByTitle('Aufnahme-Jobs');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('src')).toBe('/api/Jobs/dashboard');
  });

  it('sends visitors to the login and tells other users it is not for them', async () => {
    await renderJobs({});
    expect(screen.getByTestId('where').textContent).toBe('/login?returnUrl=%2Fjobs');
    cleanup();
    await renderJobs({ user: testUser(), roles: [] });
    expect(screen.getByText('Diese Seite ist Administratoren vorbehalten.')).toBeTruthy();
  });
});
