import { ConfigError } from '@lakecams/service-kit';
import { describe, expect, it } from 'vitest';
import { firstAdminFromEnvironment } from '../src/accounts/first-admin.ts';

const ALL = { ADMIN_USERNAME: 'portaladmin', ADMIN_EMAIL: 'admin@example.org', ADMIN_PASSWORD: 'Adm1n!Secret' };

describe('first administrator from ADMIN_USERNAME, ADMIN_EMAIL and ADMIN_PASSWORD', () => {
  it('takes all three, or none', () => {
    expect(firstAdminFromEnvironment(ALL)).toEqual({
      username: 'portaladmin',
      email: 'admin@example.org',
      password: 'Adm1n!Secret',
    });
    expect(firstAdminFromEnvironment({})).toBeUndefined();
    expect(firstAdminFromEnvironment({ ADMIN_USERNAME: ' ', ADMIN_EMAIL: '' })).toBeUndefined();
  });

  it.each([
    [{ ADMIN_USERNAME: 'portaladmin' }, 'ADMIN_EMAIL, ADMIN_PASSWORD missing'],
    [{ ADMIN_EMAIL: 'admin@example.org', ADMIN_PASSWORD: 'Adm1n!Secret' }, 'ADMIN_USERNAME missing'],
    [{ ...ALL, ADMIN_PASSWORD: '' }, 'ADMIN_PASSWORD missing'],
  ])('refuses some but not all, naming what is missing: %j', (env, missing) => {
    expect(() => firstAdminFromEnvironment(env)).toThrow(ConfigError);
    expect(() => firstAdminFromEnvironment(env)).toThrow(
      `Set ADMIN_USERNAME, ADMIN_EMAIL and ADMIN_PASSWORD together, or none of them: ${missing}`,
    );
  });

  it('refuses an admin no one could log in as, naming the variable', () => {
    expect(() => firstAdminFromEnvironment({ ...ALL, ADMIN_PASSWORD: 'simplepassword' })).toThrow(
      /^Invalid first administrator: ADMIN_PASSWORD: Password require in minimum one digit/,
    );
    expect(() => firstAdminFromEnvironment({ ...ALL, ADMIN_USERNAME: 'adm' })).toThrow(/ADMIN_USERNAME: Username must/);
    expect(() => firstAdminFromEnvironment({ ...ALL, ADMIN_EMAIL: 'admin' })).toThrow(
      'ADMIN_EMAIL: This is not a email address',
    );
  });
});
