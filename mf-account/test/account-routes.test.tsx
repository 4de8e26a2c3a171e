import { REMOTES } from '@lakecams/contracts';
import { createTestSession, jsonResponse, testUser } from '@lakecams/session/testing';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAccount } from './render-account.tsx';

vi.mock('../src/captcha/captcha-field.tsx', () => import('./captcha-stub.tsx'));

const ROUTES = REMOTES.find((remote) => remote.name === 'mf_account')?.routes ?? [];

const HEADINGS: Record<(typeof ROUTES)[number], string> = {
  login: 'Anmelden',
  register: 'Registrieren',
  confirmRegistration: 'Registrierung bestätigen',
  resetPassword: 'Passwort zurücksetzen',
  user: 'Mein Profil',
  contact: 'Kontakt',
};

describe('mf_account routes', () => {
  afterEach(cleanup);

  it.each(ROUTES)('/%s renders its page heading', async (route) => {
    const { session } = await createTestSession({
      user: testUser(),
      routes: { '/api/Code/GetCodes': () => jsonResponse([]) },
    });
    renderAccount(`/${route}`, session);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(HEADINGS[route]);
  });

  it('renders nothing on a path of another app', async () => {
    const { session } = await createTestSession();
    renderAccount('/webcams', session);
    expect(screen.queryByRole('heading')).toBeNull();
  });
});
