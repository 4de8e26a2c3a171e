import { REGISTER_RULES } from '@lakecams/contracts';
import { createTestSession, jsonResponse } from '@lakecams/session/testing';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, fill, messageOf, renderAccount } from './render-account.tsx';

vi.mock('../src/captcha/captcha-field.tsx', () => import('./captcha-stub.tsx'));

const VALID = {
  Vorname: 'Alice',
  Nachname: 'Muster',
  'E-Mail-Adresse': 'alice@example.ch',
  Telefon: '044 123 45 67',
  Benutzername: 'alice1',
  Passwort: 'Secret1!',
  'Passwort bestätigen': 'Secret1!',
} as const;

const submitButton = () => screen.getByRole('button', { name: 'Registrieren' }) as HTMLButtonElement;

function fillValid() {
  for (const [label, value] of Object.entries(VALID)) fill(label, value);
}

describe('register page', () => {
  afterEach(cleanup);

  it('shows the rule message of every field once it was left', async () => {
    renderAccount('/register', (await createTestSession()).session);
    const cases: [string, string, string | undefined][] = [
      ['Vorname', '', REGISTER_RULES.firstname.required],
      ['Vorname', 'A', 'Firstname must be longer then 1 characters'],
      ['Vorname', 'A'.repeat(51), 'Firstname must be shorter or equal then 50 characters'],
      ['Nachname', '', 'Lastname wird benötigt'],
      ['Nachname', 'M', 'Lastname must be longer then 1 characters'],
      ['E-Mail-Adresse', '', 'Emailaddress wird benötigt'],
      ['E-Mail-Adresse', 'alice.example.ch', 'This is not a email address'],
      ['Telefon', '', 'Phone wird benötigt'],
      ['Telefon', '0441234567', 'This is not a phone number'],
      ['Benutzername', 'alice', 'Username must be longer then 5 characters'],
      ['Passwort', 'secret', REGISTER_RULES.password.pattern?.message],
      ['Passwort bestätigen', '', REGISTER_RULES.passwordConfirm.required],
    ];
    for (const [label, value, message] of cases) {
      fill(label, value);
      expect(messageOf(label), `${label} = "${value}"`).toBe(message);
    }
    fill('Passwort', 'Secret1!');
    fill('Passwort bestätigen', 'Secret2!');
    expect(messageOf('Passwort bestätigen')).toBe('Password Confirm does not match the password');
  });

  it('shows no message before a field was touched', async () => {
    renderAccount('/register', (await createTestSession()).session);
    expect(messageOf('Vorname')).toBeNull();
    expect(screen.getByLabelText('Vorname').getAttribute('aria-invalid')).toBe('false');
  });

  it('keeps submit disabled until every field is valid and the captcha is solved', async () => {
    renderAccount('/register', (await createTestSession()).session);
    expect(submitButton().disabled).toBe(true);
    fillValid();
    expect(submitButton().disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Captcha lösen' }));
    expect(submitButton().disabled).toBe(false);
    fill('Telefon', '044 123 45');
    expect(submitButton().disabled).toBe(true);
  });

  it('registers with the captcha payload, then tells to check the mail and links to the confirmation', async () => {
    const fake = await createTestSession({ routes: { '/api/Register/Register': () => new Response('true') } });
    renderAccount('/register', fake.session);
    fillValid();
    fireEvent.click(screen.getByRole('button', { name: 'Captcha lösen' }));
    await act(async () => {
      fireEvent.click(submitButton());
    });
    const [request] = fake.requestsTo('/api/Register/Register');
    expect(request?.method).toBe('POST');
    expect(new URL(request?.url ?? '', 'http://x').searchParams.get('captcha')).toBe('solved-register');
    expect(request?.body).toEqual({
      firstname: 'Alice',
      lastname: 'Muster',
      email: 'alice@example.ch',
      phoneNumber: '044 123 45 67',
      username: 'alice1',
      password: 'Secret1!',
      passwordConfirm: 'Secret1!',
    });
    expect(screen.getByRole('status').textContent).toContain('alice@example.ch');
    fireEvent.click(screen.getByRole('link', { name: 'Registrierung bestätigen' }));
    expect(currentLocation()).toBe('/confirmRegistration?email=alice%40example.ch');
  });

  it('shows the server message and asks for a new captcha when registering fails', async () => {
    const fake = await createTestSession({
      routes: {
        '/api/Register/Register': () =>
          jsonResponse({ statusCode: 400, error: 'Bad Request', message: 'This username is already taken' }, 400),
      },
    });
    renderAccount('/register', fake.session);
    fillValid();
    fireEvent.click(screen.getByRole('button', { name: 'Captcha lösen' }));
    await act(async () => {
      fireEvent.click(submitButton());
    });
    expect(screen.getByRole('alert').textContent).toContain('Dieser Benutzername ist schon vergeben');
    expect(submitButton().disabled).toBe(true);
    // The new challenge is solved at once: the visitor need not leave and re-enter the form.
    expect(screen.getByRole('button', { name: 'Captcha lösen' }).getAttribute('data-solve-now')).toBe('true');
  });
});
