import { pageTitle, routesOf } from '@lakecams/contracts';
import { createTestSession, jsonResponse, testUser } from '@lakecams/session/testing';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAccount } from './render-account.tsx';

vi.mock('../src/captcha/captcha-field.tsx', () => import('./captcha-stub.tsx'));

const ROUTES = routesOf('mf_account');

describe('mf_account routes', () => {
  afterEach(cleanup);

  it.each(ROUTES)('/%s renders its page, headed by its title', async (route) => {
    const { session } = await createTestSession({
      user: testUser(),
      routes: { '/api/Code/GetCodes': () => jsonResponse([]) },
    });
    renderAccount(`/${route}`, session);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(pageTitle(route));
  });

  it('renders nothing on a path of another app', async () => {
    const { session } = await createTestSession();
    renderAccount('/webcams', session);
    expect(screen.queryByRole('heading')).toBeNull();
  });
});
