import { takeFlashMessage } from '@lakecams/session';
import { CONTACT_SUBJECTS } from '@lakecams/contracts';
import { createTestSession, testUser } from '@lakecams/session/testing';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, fill, messageOf, renderAccount } from './render-account.tsx';

vi.mock('../src/captcha/captcha-field.tsx', () => import('./captcha-stub.tsx'));

const sendButton = () => screen.getByRole('button', { name: 'Senden' }) as HTMLButtonElement;

function fillValid() {
  fill('Name', 'Alice Muster');
  fill('E-Mail-Adresse', 'alice@example.ch');
  fill('Telefon', '044 123 45 67');
  fill('Betreff', CONTACT_SUBJECTS[2]);
  fill('Nachricht', 'Eine Kamera in Stäfa wäre schön.');
}

describe('contact page', () => {
  afterEach(cleanup);

  it('offers the contact subjects after an empty choice', async () => {
    renderAccount('/contact', (await createTestSession()).session);
    const options = [...(screen.getByLabelText('Betreff') as HTMLSelectElement).options].map((o) => o.value);
    expect(options).toEqual(['', ...CONTACT_SUBJECTS]);
  });

  it('shows the contact messages', async () => {
    renderAccount('/contact', (await createTestSession()).session);
    const cases: [string, string, string][] = [
      ['Name', '', 'Bitte geben Sie Ihren Namen ein'],
      ['Name', 'Alice', 'name must be more than 5 characters'],
      ['Name', 'A'.repeat(51), 'name must not be more than 50 characters'],
      ['E-Mail-Adresse', 'x@', 'This is not a email address'],
      ['Telefon', '', 'Phone wird benötigt'],
      ['Telefon', '+41 44 123 45 67', 'This is not a phone number'],
      ['Betreff', '', 'Wählen Sie einen Betreff aus'],
      ['Nachricht', 'Hallo', 'Bitte geben Sie eine längere Nachricht ein'],
    ];
    for (const [label, value, message] of cases) {
      fill(label, value);
      expect(messageOf(label), `${label} = "${value}"`).toBe(message);
    }
  });

  it('fills in what it knows of a signed-in user', async () => {
    renderAccount('/contact', (await createTestSession({ user: testUser() })).session);
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Alice Muster');
    expect((screen.getByLabelText('E-Mail-Adresse') as HTMLInputElement).value).toBe('alice@example.ch');
  });

  it('keeps send disabled until valid and the captcha is solved, then sends and goes home', async () => {
    const fake = await createTestSession({ routes: { '/api/Contact/Contact': () => new Response(null) } });
    renderAccount('/contact', fake.session);
    fillValid();
    expect(sendButton().disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Captcha lösen' }));
    expect(sendButton().disabled).toBe(false);
    await act(async () => {
      fireEvent.click(sendButton());
    });
    const [request] = fake.requestsTo('/api/Contact/Contact');
    expect(new URL(request?.url ?? '', 'http://x').searchParams.get('captcha')).toBe('solved-contact');
    expect(request?.headers.get('X-XSRF-TOKEN')).toBe('test-xsrf');
    expect(request?.body).toEqual({
      name: 'Alice Muster',
      mail: 'alice@example.ch',
      phone: '044 123 45 67',
      subject: CONTACT_SUBJECTS[2],
      message: 'Eine Kamera in Stäfa wäre schön.',
    });
    expect(currentLocation()).toBe('/');
    // The landing page (the shell) says what happened.
    expect(takeFlashMessage('/')?.text).toContain('Ihre Nachricht ist gesendet');
  });
});
