import { LOGIN_RULES } from '@lakecams/contracts';
import { AUTH_PATHS } from '@lakecams/session';
import { createTestSession, jsonResponse, testUser, testUserSummary } from '@lakecams/session/testing';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { currentLocation, fill, messageOf, renderAccount } from './render-account.tsx';

const loginCard = () => screen.getByRole('region', { name: 'Mit Ihrem Konto anmelden' });
const forgotCard = () => screen.getByRole('region', { name: 'Passwort vergessen?' });
const loginButton = () => within(loginCard()).getByRole('button', { name: 'Anmelden' }) as HTMLButtonElement;

async function submitLogin(username: string, password: string) {
  fill('Benutzername', username);
  fill('Passwort', password);
  expect(loginButton().disabled).toBe(false);
  await act(async () => {
    fireEvent.click(loginButton());
  });
}

describe('login page', () => {
  afterEach(cleanup);

  it('shows the login and the forgot-password form side by side', async () => {
    renderAccount('/login', (await createTestSession()).session);
    expect(loginCard()).toBeTruthy();
    expect(forgotCard()).toBeTruthy();
  });

  it('shows every username and password message, Anmelden disabled until both are valid', async () => {
    renderAccount('/login', (await createTestSession()).session);
    expect(loginButton().disabled).toBe(true);
    fill('Benutzername', '');
    fill('Passwort', '');
    expect(messageOf('Benutzername')).toBe(LOGIN_RULES.username.required);
    expect(messageOf('Passwort')).toBe(LOGIN_RULES.password.required);
    expect(screen.getByLabelText('Benutzername').getAttribute('aria-invalid')).toBe('true');

    fill('Benutzername', 'abc');
    expect(messageOf('Benutzername')).toBe('Username must be longer then 5 characters');
    fill('Benutzername', 'a'.repeat(51));
    expect(messageOf('Benutzername')).toBe('Username must be shorter or equal then 50 characters');
    fill('Passwort', 'abc');
    expect(messageOf('Passwort')).toBe('Password must be longer then 5 characters');
    fill('Passwort', 'a'.repeat(51));
    expect(messageOf('Passwort')).toBe('Password must be shorter or equal then 50 characters');
    fill('Passwort', 'abcdefgh');
    expect(messageOf('Passwort')).toBe(LOGIN_RULES.password.pattern?.message);
    expect(loginButton().disabled).toBe(true);
    fill('Passwort', 'Secret1!');
    expect(messageOf('Passwort')).toBeNull();
    expect(screen.getByLabelText('Passwort').getAttribute('aria-invalid')).toBe('false');
    expect(loginButton().disabled).toBe(true);
    fill('Benutzername', 'alice1');
    expect(loginButton().disabled).toBe(false);
  });

  it('keeps Anmelden disabled and sends nothing while the form is invalid, even when submitted', async () => {
    const fake = await createTestSession();
    renderAccount('/login', fake.session);
    fill('Benutzername', 'abc');
    fill('Passwort', 'x');
    expect(loginButton().disabled).toBe(true);
    await act(async () => {
      fireEvent.submit(screen.getByRole('form', { name: 'Anmelden' }));
    });
    expect(fake.requestsTo(AUTH_PATHS.authenticate)).toHaveLength(0);
  });

  it('shows the wrong-credentials message', async () => {
    const fake = await createTestSession({
      routes: { [AUTH_PATHS.authenticate]: () => jsonResponse({ statusCode: 401, message: 'nope' }, 401) },
    });
    renderAccount('/login', fake.session);
    await submitLogin('alice1', 'Secret1!');
    expect(screen.getByRole('alert').textContent).toContain('Benutzername oder Passwort ist falsch.');
    expect(currentLocation()).toBe('/login');
  });

  it('points an unconfirmed user to the confirmation', async () => {
    const fake = await createTestSession({
      routes: { [AUTH_PATHS.authenticate]: () => jsonResponse({ statusCode: 403, message: 'confirm' }, 403) },
    });
    renderAccount('/login', fake.session);
    await submitLogin('alice1', 'Secret1!');
    expect(within(screen.getByRole('alert')).getByRole('link').getAttribute('href')).toBe('/confirmRegistration');
  });

  it.each([
    ['/login?returnUrl=%2Fuser', '/user'],
    ['/login', '/'],
    ['/login?returnUrl=https%3A%2F%2Fevil.example%2F', '/'],
    ['/login?returnUrl=%2F%2Fevil.example', '/'],
  ])('after login at %s goes to %s', async (path, expected) => {
    const fake = await createTestSession({ routes: { [AUTH_PATHS.authenticate]: () => jsonResponse(testUser()) } });
    renderAccount(path, fake.session);
    await submitLogin('alice1', 'Secret1!');
    expect(fake.requestsTo(AUTH_PATHS.authenticate)[0]?.body).toEqual({ username: 'alice1', password: 'Secret1!' });
    expect(fake.session.getState().user?.userName).toBe('alice1');
    expect(currentLocation()).toBe(expected);
  });

  it.each([
    ['/login?returnUrl=%2Fedit%2Fwebcams', '/edit/webcams', 'Weiter zur angefragten Seite'],
    ['/login', '/', 'Weiter zur Startseite'],
    ['/login?returnUrl=https%3A%2F%2Fevil.example%2F', '/', 'Weiter zur Startseite'],
  ])('tells a signed-in user at %s who is signed in, instead of the forms', async (path, href, goOn) => {
    const fake = await createTestSession({ user: testUser() });
    renderAccount(path, fake.session);
    const card = screen.getByRole('region', { name: 'Sie sind angemeldet' });
    expect(card.textContent).toContain('Sie sind angemeldet als Alice Muster (alice1).');
    expect(screen.queryByRole('form', { name: 'Anmelden' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Passwort vergessen?' })).toBeNull();
    expect(within(card).getByRole('link', { name: goOn }).getAttribute('href')).toBe(href);
    await act(async () => {
      fireEvent.click(within(card).getByRole('button', { name: 'Abmelden' }));
    });
    expect(fake.requestsTo(AUTH_PATHS.logOut)).toHaveLength(1);
    expect(fake.session.getState().user).toBeNull();
    // Signed out, the page offers the login again.
    expect(loginCard()).toBeTruthy();
  });

  it('names the user an administrator acts as, besides who is signed in', async () => {
    const fake = await createTestSession({ user: testUser({ roles: ['Admin'] }) });
    await act(async () => {
      await fake.session.impersonate(
        testUserSummary({
          id: '6d1f1c9e-0000-4000-8000-000000000002',
          firstName: 'Rita',
          lastName: 'Referer',
          userName: 'rita_referer',
        }),
      );
    });
    renderAccount('/login', fake.session);
    expect(screen.getByRole('region', { name: 'Sie sind angemeldet' }).textContent).toContain(
      'Sie sind angemeldet als Alice Muster (alice1) und handeln als Rita Referer (rita_referer).',
    );
  });

  it('forgot password: email messages, then the request and a link to the reset page', async () => {
    const fake = await createTestSession({ routes: { '/api/Register/RecoverPassword': () => new Response('true') } });
    renderAccount('/login', fake.session);
    const send = within(forgotCard()).getByRole('button', { name: 'Code anfordern' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    fill('E-Mail-Adresse', '');
    expect(messageOf('E-Mail-Adresse')).toBe('Emailaddress wird benötigt');
    fill('E-Mail-Adresse', 'alice@');
    expect(messageOf('E-Mail-Adresse')).toBe('This is not a email address');
    expect(send.disabled).toBe(true);
    expect(fake.requestsTo('/api/Register/RecoverPassword')).toHaveLength(0);

    fill('E-Mail-Adresse', 'alice@example.ch');
    expect(send.disabled).toBe(false);
    await act(async () => {
      fireEvent.click(send);
    });
    const [request] = fake.requestsTo('/api/Register/RecoverPassword');
    expect(request?.method).toBe('POST');
    expect(new URL(request?.url ?? '', 'http://x').searchParams.get('email')).toBe('alice@example.ch');
    const link = within(forgotCard()).getByRole('link', { name: 'Code eingeben und Passwort setzen' });
    expect(link.getAttribute('href')).toBe('/resetPassword?email=alice%40example.ch');
  });
});
