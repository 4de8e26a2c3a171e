import { takeFlashMessage } from '@lakecams/session';
import { createTestSession, jsonResponse } from '@lakecams/session/testing';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { currentLocation, fill, messageOf, renderAccount } from './render-account.tsx';

const submitButton = () => screen.getByRole('button', { name: 'Passwort ändern' }) as HTMLButtonElement;

async function submit() {
  expect(submitButton().disabled).toBe(false);
  await act(async () => {
    fireEvent.click(submitButton());
  });
}

function fillRest() {
  fill('Benutzername', 'alice1');
  fill('Neues Passwort', 'Newpass1!');
  fill('Passwort bestätigen', 'Newpass1!');
}

describe('reset password page', () => {
  afterEach(cleanup);

  it('fills email and code from the link of the mail', async () => {
    renderAccount('/resetPassword?email=alice%40example.ch&code=ABCD2345EFGH', (await createTestSession()).session);
    expect((screen.getByLabelText('E-Mail-Adresse') as HTMLInputElement).value).toBe('alice@example.ch');
    expect((screen.getByLabelText('Code aus der E-Mail') as HTMLInputElement).value).toBe('ABCD2345EFGH');
  });

  it('shows the messages of email, username, password, confirm and code, submit disabled meanwhile', async () => {
    const fake = await createTestSession();
    renderAccount('/resetPassword', fake.session);
    expect(submitButton().disabled).toBe(true);
    for (const label of [
      'E-Mail-Adresse',
      'Benutzername',
      'Neues Passwort',
      'Passwort bestätigen',
      'Code aus der E-Mail',
    ]) {
      fill(label, '');
    }
    expect(messageOf('E-Mail-Adresse')).toBe('Emailaddress wird benötigt');
    expect(messageOf('Benutzername')).toBe('Username wird benötigt');
    expect(messageOf('Neues Passwort')).toBe('Password wird benötigt');
    expect(messageOf('Passwort bestätigen')).toBe('Password Confirm wird benötigt');
    expect(messageOf('Code aus der E-Mail')).toBe('Code wird benötigt.');
    fill('Code aus der E-Mail', 'ABC');
    expect(messageOf('Code aus der E-Mail')).toBe('Code must be longer then 5 characters');
    fill('Code aus der E-Mail', 'A'.repeat(501));
    expect(messageOf('Code aus der E-Mail')).toBe('Code must be shorter or equal then 500 characters');
    expect(submitButton().disabled).toBe(true);
    expect(fake.requests).toHaveLength(0);
  });

  it('keeps Passwort ändern disabled until every field is valid', async () => {
    renderAccount('/resetPassword?email=alice%40example.ch&code=ABCD2345EFGH', (await createTestSession()).session);
    expect(submitButton().disabled).toBe(true);
    fillRest();
    expect(submitButton().disabled).toBe(false);
    fill('Passwort bestätigen', 'Newpass2!');
    expect(messageOf('Passwort bestätigen')).toBe('Password Confirm does not match the password');
    expect(submitButton().disabled).toBe(true);
  });

  it('resets the password and goes to login', async () => {
    const fake = await createTestSession({ routes: { '/api/Register/ResetPassword': () => new Response('true') } });
    renderAccount('/resetPassword?email=alice%40example.ch&code=ABCD2345EFGH', fake.session);
    fillRest();
    await submit();
    expect(fake.requestsTo('/api/Register/ResetPassword')[0]?.body).toEqual({
      email: 'alice@example.ch',
      username: 'alice1',
      password: 'Newpass1!',
      passwordConfirm: 'Newpass1!',
      token: 'ABCD2345EFGH',
    });
    expect(currentLocation()).toBe('/login');
    // The landing page (the shell) says what happened.
    expect(takeFlashMessage('/login')?.text).toContain('Ihr Passwort ist geändert');
  });

  it('shows the server message when the code is wrong', async () => {
    const fake = await createTestSession({
      routes: {
        '/api/Register/ResetPassword': () =>
          jsonResponse({ statusCode: 400, message: 'The code is invalid or has expired' }, 400),
      },
    });
    renderAccount('/resetPassword?email=alice%40example.ch&code=ABCD2345EFGH', fake.session);
    fillRest();
    await submit();
    expect(screen.getByRole('alert').textContent).toContain('Der Code ist ungültig oder abgelaufen.');
    expect(currentLocation()).toContain('/resetPassword');
  });
});
