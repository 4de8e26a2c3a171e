import { pageTitle, routesOf } from '@lakecams/contracts';
import { SessionContext } from '@lakecams/session';
import { createTestSession, jsonResponse, testUser } from '@lakecams/session/testing';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { AdminRoutes } from '../src/admin-routes.tsx';

const ROUTES = routesOf('mf_admin');

describe('mf_admin routes', () => {
  afterEach(cleanup);

  it.each(ROUTES)('/%s renders its page, headed by its title, for an admin', async (route) => {
    const { session } = await createTestSession({
      user: testUser(),
      roles: ['Admin'],
      routes: { '/api/Authenticate/AllUsers': () => jsonResponse([]) },
    });
    render(
      <SessionContext.Provider value={session}>
        <MemoryRouter initialEntries={[`/${route}`]}>
          <AdminRoutes />
        </MemoryRouter>
      </SessionContext.Provider>,
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(pageTitle(route));
  });
});
