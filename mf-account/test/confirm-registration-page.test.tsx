import { takeFlashMessage } from '@lakecams/session';
import { createTestSession, jsonResponse } from '@lakecams/session/testing';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { currentLocation, fill, messageOf, renderAccount } from './render-account.tsx';

const TOKEN = 'k'.repeat(64);

const submitButton = () => screen.getByRole('button', { name: 'Bestätigen' }) as HTMLButtonElement;

async function submit() {
  expect(submitButton().disabled).toBe(false);
  await act(async () => {
    fireEvent.click(submitButton());
  });
}

describe('confirm registration page', () => {
  afterEach(cleanup);

  it('fills email and token from the link of the mail', async () => {
    renderAccount(`/confirmRegistration?email=alice%40example.ch&token=${TOKEN}`, (await createTestSession()).session);
    expect((screen.getByLabelText('E-Mail-Adresse') as HTMLInputElement).value).toBe('alice@example.ch');
    expect((screen.getByLabelText('Token') as HTMLInputElement).value).toBe(TOKEN);
  });

  it('shows the email and token messages, Bestätigen disabled until both are valid', async () => {
    const fake = await createTestSession();
    renderAccount('/confirmRegistration', fake.session);
    expect(submitButton().disabled).toBe(true);
    fill('E-Mail-Adresse', '');
    fill('Token', '');
    expect(messageOf('E-Mail-Adresse')).toBe('Emailaddress wird benötigt');
    expect(messageOf('Token')).toBe('Token wird benötigt');
    fill('E-Mail-Adresse', 'alice@example.ch');
    fill('Token', 'short');
    expect(messageOf('Token')).toBe('This is not the token we sent you');
    expect(submitButton().disabled).toBe(true);
    expect(fake.requests).toHaveLength(0);
    fill('Token', TOKEN);
    expect(submitButton().disabled).toBe(false);
  });

  it('confirms with PUT and goes to login', async () => {
    const fake = await createTestSession({ routes: { '/api/RegisterConfirm/Confirm': () => jsonResponse(true) } });
    renderAccount(`/confirmRegistration?email=alice%40example.ch&token=${TOKEN}`, fake.session);
    await submit();
    const [request] = fake.requestsTo('/api/RegisterConfirm/Confirm');
    expect(request?.method).toBe('PUT');
    const query = new URL(request?.url ?? '', 'http://x').searchParams;
    expect(query.get('userEmail')).toBe('alice@example.ch');
    expect(query.get('token')).toBe(TOKEN);
    expect(currentLocation()).toBe('/login');
    // The landing page (the shell) says what happened.
    expect(takeFlashMessage('/login')?.text).toContain('Ihre E-Mail-Adresse ist bestätigt');
  });

  it('does nothing when the server refuses the token', async () => {
    const fake = await createTestSession({
      routes: {
        '/api/RegisterConfirm/Confirm': () =>
          jsonResponse({ statusCode: 400, message: 'This is not the token we sent you' }, 400),
      },
    });
    renderAccount(`/confirmRegistration?email=alice%40example.ch&token=${TOKEN}`, fake.session);
    await submit();
    expect(currentLocation()).toBe(`/confirmRegistration?email=alice%40example.ch&token=${TOKEN}`);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(submitButton().disabled).toBe(false);
  });
});
