import {
  CODE_RULES,
  CONFIRM_REGISTRATION_RULES,
  CONTACT_RULES,
  FORGOT_PASSWORD_RULES,
  type FormRules,
  LOGIN_RULES,
  PROFILE_RULES,
  REGISTER_RULES,
  RESET_PASSWORD_RULES,
} from '@lakecams/contracts';
import { ruleViolations } from '@lakecams/contracts/testing';
import { createTestSession, jsonResponse, testUser } from '@lakecams/session/testing';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CAPTCHA_PENDING_HINT, INVALID_FORM_HINT } from '../src/forms/submit-button.tsx';
import { fill, messageOf, renderAccount } from './render-account.tsx';

vi.mock('../src/captcha/captcha-field.tsx', () => import('./captcha-stub.tsx'));

interface FormUnderTest {
  form: string;
  path: string;
  signedIn?: boolean;
  rules: FormRules;
  /** The form's accessible name and its submit button. */
  name: string;
  submit: string;
  /** Field name → its label on the page and a value that passes every rule. */
  fields: Record<string, { label: string; valid: string }>;
  /** Fields that are choices (a select): only "required" can be broken there. */
  choices?: string[];
  /** Sending also waits for the captcha (the stub's button solves it). */
  captcha?: boolean;
}

const EMAIL = { label: 'E-Mail-Adresse', valid: 'alice@example.ch' };
const PHONE = { label: 'Telefon', valid: '044 123 45 67' };
const USERNAME = { label: 'Benutzername', valid: 'alice1' };
const PASSWORD = 'Seeblick!2026';

const FORMS: FormUnderTest[] = [
  {
    form: 'login',
    path: '/login',
    rules: LOGIN_RULES,
    name: 'Anmelden',
    submit: 'Anmelden',
    fields: { username: USERNAME, password: { label: 'Passwort', valid: PASSWORD } },
  },
  {
    form: 'forgot password',
    path: '/login',
    rules: FORGOT_PASSWORD_RULES,
    name: 'Passwort vergessen',
    submit: 'Code anfordern',
    fields: { email: EMAIL },
  },
  {
    form: 'register',
    path: '/register',
    rules: REGISTER_RULES,
    name: 'Registrieren',
    submit: 'Registrieren',
    captcha: true,
    fields: {
      firstname: { label: 'Vorname', valid: 'Alice' },
      lastname: { label: 'Nachname', valid: 'Muster' },
      email: EMAIL,
      phoneNumber: PHONE,
      username: USERNAME,
      password: { label: 'Passwort', valid: PASSWORD },
      passwordConfirm: { label: 'Passwort bestätigen', valid: PASSWORD },
    },
  },
  {
    form: 'reset password',
    path: '/resetPassword',
    rules: RESET_PASSWORD_RULES,
    name: 'Passwort zurücksetzen',
    submit: 'Passwort ändern',
    fields: {
      email: EMAIL,
      username: USERNAME,
      password: { label: 'Neues Passwort', valid: PASSWORD },
      passwordConfirm: { label: 'Passwort bestätigen', valid: PASSWORD },
      token: { label: 'Code aus der E-Mail', valid: 'ABCD2345EFGH' },
    },
  },
  {
    form: 'confirm registration',
    path: '/confirmRegistration',
    rules: CONFIRM_REGISTRATION_RULES,
    name: 'Registrierung bestätigen',
    submit: 'Bestätigen',
    fields: { userEmail: EMAIL, token: { label: 'Token', valid: 'k'.repeat(64) } },
  },
  {
    form: 'contact',
    path: '/contact',
    rules: CONTACT_RULES,
    name: 'Kontakt',
    submit: 'Senden',
    captcha: true,
    fields: {
      name: { label: 'Name', valid: 'Alice Muster' },
      mail: EMAIL,
      phone: PHONE,
      subject: { label: 'Betreff', valid: 'Anderes' },
      message: { label: 'Nachricht', valid: 'Eine Kamera in Stäfa wäre schön.' },
    },
    choices: ['subject'],
  },
  {
    form: 'profile',
    path: '/user',
    signedIn: true,
    rules: PROFILE_RULES,
    name: 'Profil',
    submit: 'Profil speichern',
    fields: {
      firstName: { label: 'Vorname', valid: 'Alice' },
      lastName: { label: 'Nachname', valid: 'Muster' },
      phoneNumber: PHONE,
    },
  },
  {
    form: 'code',
    path: '/user',
    signedIn: true,
    rules: CODE_RULES,
    name: 'Code einlösen',
    submit: 'Einlösen',
    fields: { code: { label: 'Code', valid: 'PREMIUM-1234' } },
  },
];

async function renderForm({ path, signedIn, name, submit }: FormUnderTest) {
  const { session } = await createTestSession(
    signedIn ? { user: testUser(), routes: { '/api/Code/GetCodes': () => jsonResponse([]) } } : {},
  );
  renderAccount(path, session);
  const form = screen.getByRole('form', { name });
  return { form, button: within(form).getByRole('button', { name: submit }) as HTMLButtonElement };
}

/** What a screen reader reads as the element's description (aria-describedby). */
function descriptionOf(element: HTMLElement): string | null {
  const ids = element.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent).join(' ') || null;
}

describe('every rule of the account forms shows its message and disables the submit', () => {
  afterEach(cleanup);

  for (const formUnderTest of FORMS) {
    const { form, rules, fields, choices = [], captcha } = formUnderTest;
    const cases = Object.entries(rules).flatMap(([field, rule]) =>
      ruleViolations(field, rule)
        .filter((violation) => !choices.includes(field) || violation.value === '')
        .map((violation) => ({ ...violation, field })),
    );
    it.each(cases)(`${form}: $case → "$message", submit disabled`, async ({ field, value, message }) => {
      const { form: element, button } = await renderForm(formUnderTest);
      if (captcha) fireEvent.click(within(element).getByRole('button', { name: 'Captcha lösen' }));
      for (const { label, valid } of Object.values(fields)) fill(label, valid);
      // Only the broken rule can disable it.
      expect(button.disabled).toBe(false);
      const label = fields[field]?.label as string;
      fill(label, value);
      expect(messageOf(label)).toBe(message);
      expect(button.disabled).toBe(true);
      expect(descriptionOf(button)).toBe(INVALID_FORM_HINT);
    });
  }
});

describe('a disabled account submit tells why', () => {
  afterEach(cleanup);

  it.each(FORMS)('$form: the hint describes the button, and Enter in a field shows the messages', async (form) => {
    const { form: element, button } = await renderForm(form);
    const [first, ...others] = Object.entries(form.fields);
    const [firstName, { label: firstLabel }] = first as [string, { label: string }];
    // Typed but not yet left: no message so far.
    for (const [, { label, valid }] of others)
      fireEvent.change(screen.getByLabelText(label), { target: { value: valid } });
    fireEvent.change(screen.getByLabelText(firstLabel), { target: { value: '' } });
    expect(button.disabled).toBe(true);
    expect(descriptionOf(button)).toBe(INVALID_FORM_HINT);
    expect(messageOf(firstLabel)).toBeNull();

    fireEvent.keyDown(screen.getByLabelText(firstLabel), { key: 'Enter' });
    expect(messageOf(firstLabel)).toBe(form.rules[firstName]?.required);

    fill(firstLabel, form.fields[firstName]?.valid as string);
    if (form.captcha) {
      expect(button.disabled).toBe(true);
      expect(descriptionOf(button)).toBe(CAPTCHA_PENDING_HINT);
      fireEvent.click(within(element).getByRole('button', { name: 'Captcha lösen' }));
    }
    expect(button.disabled).toBe(false);
    expect(descriptionOf(button)).toBeNull();
    expect(within(element).queryByText(INVALID_FORM_HINT)).toBeNull();
  });
});
