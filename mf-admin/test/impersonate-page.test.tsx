import type { UserSummary } from '@lakecams/contracts';
import { AUTH_PATHS, type Session, SessionContext } from '@lakecams/session';
import { createTestSession, jsonResponse, testUser, testUserSummary } from '@lakecams/session/testing';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ImpersonatePage } from '../src/pages/impersonate-page.tsx';

const alice = testUserSummary();
const bob = testUserSummary({
  id: '6d1f1c9e-0000-4000-8000-000000000002',
  firstName: 'Bob',
  lastName: 'Beispiel',
  userName: 'bobbob',
  email: 'bob@example.ch',
  phoneNumber: '055 987 65 43',
  emailConfirmed: false,
});
const USERS: UserSummary[] = [alice, bob];

function Where() {
  return <div data-testid="location">{useLocation().pathname}</div>;
}

function renderPage(session: Session) {
  render(
    <SessionContext.Provider value={session}>
      <MemoryRouter initialEntries={['/impersonate']}>
        <Routes>
          <Route path="impersonate" element={<ImpersonatePage />} />
          <Route path="*" element={null} />
        </Routes>
        <Where />
      </MemoryRouter>
    </SessionContext.Provider>,
  );
}

const adminSession = (roles = ['Admin']) =>
  createTestSession({
    user: testUser(),
    roles,
    routes: { '/api/Authenticate/AllUsers': () => jsonResponse(USERS) },
  });

describe('impersonate page', () => {
  afterEach(cleanup);

  it('redirects an anonymous visitor to /login', async () => {
    renderPage((await createTestSession()).session);
    expect(screen.getByTestId('location').textContent).toBe('/login');
  });

  it('redirects a signed-in non-admin acting as itself to /login', async () => {
    renderPage((await adminSession(['Premium'])).session);
    expect(screen.getByTestId('location').textContent).toBe('/login');
  });

  it('lists all users for an admin, with every column', async () => {
    renderPage((await adminSession()).session);
    const table = await screen.findByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(headers).toEqual(['Vorname', 'Nachname', 'Benutzername', 'Telefon', 'E-Mail', 'Bestätigt', 'Aktion']);
    const bobRow = within(table).getByText('bobbob').closest('tr') as HTMLElement;
    expect([...bobRow.querySelectorAll('td')].slice(0, 6).map((td) => td.textContent)).toEqual([
      'Bob',
      'Beispiel',
      'bobbob',
      '055 987 65 43',
      'bob@example.ch',
      'Nein',
    ]);
  });

  it('impersonates a user from the table and goes back to the own user', async () => {
    const fake = await adminSession();
    renderPage(fake.session);
    fake.route(AUTH_PATHS.roles, () => jsonResponse([]));
    const impersonateBob = await screen.findByRole('button', { name: 'Bob Beispiel (bobbob) vertreten' });
    await act(async () => {
      fireEvent.click(impersonateBob);
    });
    expect(fake.session.getState().applicationUser?.id).toBe(bob.id);
    expect(fake.session.getState().isAdmin).toBe(false);
    // Still allowed here: the acting user differs from the logged-in one.
    expect(screen.getByTestId('location').textContent).toBe('/impersonate');
    expect(screen.getByRole('status').textContent).toContain('Sie handeln als Bob Beispiel');
    expect(fake.requestsTo(AUTH_PATHS.roles).at(-1)?.headers.get('Impersonate')).toBe(bob.id);

    fake.route(AUTH_PATHS.roles, () => jsonResponse(['Admin']));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Zurück zu meinem Benutzer' }));
    });
    expect(fake.session.getState().applicationUser?.id).toBe(alice.id);
    expect(fake.session.getState().isAdmin).toBe(true);
  });
});
