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
import { createTestSession, testUser } from '@lakecams/session/testing';
import { cleanup } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fill, messageOf, renderAccount } from './render-account.tsx';

vi.mock('../src/captcha/captcha-field.tsx', () => import('./captcha-stub.tsx'));

interface FormUnderTest {
  form: string;
  path: string;
  signedIn?: boolean;
  rules: FormRules;
  /** Field name → its label on the page. */
  labels: Record<string, string>;
  /** Fields that are choices (a select): only "required" can be broken there. */
  choices?: string[];
}

const FORMS: FormUnderTest[] = [
  { form: 'login', path: '/login', rules: LOGIN_RULES, labels: { username: 'Benutzername', password: 'Passwort' } },
  { form: 'forgot password', path: '/login', rules: FORGOT_PASSWORD_RULES, labels: { email: 'E-Mail-Adresse' } },
  {
    form: 'register',
    path: '/register',
    rules: REGISTER_RULES,
    labels: {
      firstname: 'Vorname',
      lastname: 'Nachname',
      email: 'E-Mail-Adresse',
      phoneNumber: 'Telefon',
      username: 'Benutzername',
      password: 'Passwort',
      passwordConfirm: 'Passwort bestätigen',
    },
  },
  {
    form: 'reset password',
    path: '/resetPassword',
    rules: RESET_PASSWORD_RULES,
    labels: {
      email: 'E-Mail-Adresse',
      username: 'Benutzername',
      password: 'Neues Passwort',
      passwordConfirm: 'Passwort bestätigen',
      token: 'Code aus der E-Mail',
    },
  },
  {
    form: 'confirm registration',
    path: '/confirmRegistration',
    rules: CONFIRM_REGISTRATION_RULES,
    labels: { userEmail: 'E-Mail-Adresse', token: 'Token' },
  },
  {
    form: 'contact',
    path: '/contact',
    rules: CONTACT_RULES,
    labels: { name: 'Name', mail: 'E-Mail-Adresse', phone: 'Telefon', subject: 'Betreff', message: 'Nachricht' },
    choices: ['subject'],
  },
  {
    form: 'profile',
    path: '/user',
    signedIn: true,
    rules: PROFILE_RULES,
    labels: { firstName: 'Vorname', lastName: 'Nachname', phoneNumber: 'Telefon' },
  },
  { form: 'code', path: '/user', signedIn: true, rules: CODE_RULES, labels: { code: 'Code' } },
];

describe('every §5 rule of the account forms shows its message in the form', () => {
  afterEach(cleanup);

  for (const { form, path, signedIn, rules, labels, choices = [] } of FORMS) {
    const cases = Object.entries(rules).flatMap(([field, rule]) =>
      ruleViolations(field, rule)
        .filter((violation) => !choices.includes(field) || violation.value === '')
        .map((violation) => ({ ...violation, field })),
    );
    it.each(cases)(`${form}: $case → "$message"`, async ({ field, value, message }) => {
      const { session } = await createTestSession(signedIn ? { user: testUser() } : {});
      renderAccount(path, session);
      const label = labels[field] as string;
      const other = rules[field]?.equalsField?.field;
      if (other) fill(labels[other] as string, 'Seeblick!2026');
      if (choices.includes(field)) fill(label, 'Anderes');
      fill(label, value);
      expect(messageOf(label)).toBe(message);
    });
  }
});
