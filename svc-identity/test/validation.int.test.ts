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
import type { TestClient } from '@lakecams/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildIdentityService, type IdentityTestService } from '../src/testing.ts';

const VALID = {
  login: { username: 'someone_valid', password: 'Seeblick!2026' },
  forgot: { email: 'someone@example.org' },
  register: {
    firstname: 'Anna',
    lastname: 'Muster',
    email: 'anna@example.org',
    username: 'anna_valid',
    password: 'Seeblick!2026',
    passwordConfirm: 'Seeblick!2026',
    phoneNumber: '079 123 45 67',
  },
  reset: {
    email: 'anna@example.org',
    username: 'anna_valid',
    password: 'Seeblick!2026',
    passwordConfirm: 'Seeblick!2026',
    token: 'ABCDEFGHJK',
  },
  confirm: { userEmail: 'anna@example.org', token: 'x'.repeat(64) },
  contact: {
    name: 'Hans Muster',
    mail: 'hans@example.org',
    phone: '055 123 45 67',
    subject: 'Anderes',
    message: 'Hallo zusammen',
  },
  profile: { firstName: 'Anna', lastName: 'Muster', phoneNumber: '079 123 45 67' },
  code: { code: 'ABCDEFGH' },
};

type Send = (
  client: TestClient,
  values: Record<string, string>,
) => Promise<{ status: number; json: { message?: string } }>;
const query = (values: Record<string, string>) => new URLSearchParams(values).toString();

const FORMS: { form: string; rules: FormRules; valid: Record<string, string>; send: Send; asUser?: boolean }[] = [
  {
    form: 'login',
    rules: LOGIN_RULES,
    valid: VALID.login,
    send: (c, v) => c.post('/api/Authenticate/Authenticate', v),
  },
  {
    form: 'forgot password',
    rules: FORGOT_PASSWORD_RULES,
    valid: VALID.forgot,
    send: (c, v) => c.post(`/api/Register/RecoverPassword?${query(v)}`),
  },
  {
    form: 'register',
    rules: REGISTER_RULES,
    valid: VALID.register,
    send: (c, v) => c.post('/api/Register/Register?captcha=unsolved', v),
  },
  {
    form: 'reset password',
    rules: RESET_PASSWORD_RULES,
    valid: VALID.reset,
    send: (c, v) => c.post('/api/Register/ResetPassword', v),
  },
  {
    form: 'confirm registration',
    rules: CONFIRM_REGISTRATION_RULES,
    valid: VALID.confirm,
    send: (c, v) => c.put(`/api/RegisterConfirm/Confirm?${query(v)}`),
  },
  {
    form: 'contact',
    rules: CONTACT_RULES,
    valid: VALID.contact,
    send: (c, v) => c.post('/api/Contact/Contact?captcha=unsolved', v),
  },
  {
    form: 'profile',
    rules: PROFILE_RULES,
    valid: VALID.profile,
    send: (c, v) => c.post('/api/Register/Update', v),
    asUser: true,
  },
  {
    form: 'code',
    rules: CODE_RULES,
    valid: VALID.code,
    send: (c, v) => c.post(`/api/Code/RegisterCode?${query(v)}`),
    asUser: true,
  },
];

describe('every rule of the account forms is enforced by svc-identity with its message', () => {
  let identity: IdentityTestService;
  let anonymous: TestClient;
  let user: TestClient;

  beforeAll(async () => {
    identity = await buildIdentityService();
    anonymous = identity.client();
    user = identity.client();
    user.setToken((await user.post('/api/Authenticate/Authenticate', ADMIN)).json.jwtToken);
  });
  afterAll(async () => identity?.close());

  for (const { form, rules, valid, send, asUser } of FORMS) {
    const cases = Object.entries(rules).flatMap(([field, rule]) =>
      ruleViolations(field, rule).map((violation) => ({ ...violation, field })),
    );
    it.each(cases)(`${form}: $case → 400 "$message"`, async ({ field, value, message }) => {
      const values = { ...valid, [field]: value };
      const response = await send(asUser ? user : anonymous, values);
      expect(response.status).toBe(400);
      expect(response.json.message).toBe(message);
    });
  }

  it('lets well-formed values through validation', async () => {
    // Confirm answers an unknown token with the same message as a malformed one, on purpose.
    for (const { form, rules, valid, send, asUser } of FORMS.filter((f) => f.form !== 'confirm registration')) {
      const messages = Object.entries(rules).flatMap(([field, rule]) =>
        ruleViolations(field, rule).map((v) => v.message),
      );
      const response = await send(asUser ? user : anonymous, valid);
      expect(messages, form).not.toContain(response.json?.message);
    }
  });
});
