import { FORGOT_PASSWORD_RULES, LOGIN_RULES, PASSWORD_PATTERN, ROLES, validateForm } from '@lakecams/contracts';
import { ConfigError } from '@lakecams/service-kit';
import type { FastifyBaseLogger } from 'fastify';
import { randomInt } from 'node:crypto';
import type { IdentityOptions } from '../options.ts';
import { hashPassword } from '../passwords.ts';
import type { UserRepository } from '../repositories/user-repository.ts';
import type { Accounts } from './accounts.ts';

function demoPassword(): string {
  const pick = (alphabet: string, n: number) =>
    Array.from({ length: n }, () => alphabet[randomInt(alphabet.length)]).join('');
  // Always satisfies the password rule: lower, upper, digit, special, 16 characters.
  const password = `${pick('abcdefghijkmnpqrstuvwxyz', 6)}${pick('ABCDEFGHJKLMNPQRSTUVWXYZ', 4)}${pick('23456789', 4)}${pick('@$!%*?&', 2)}`;
  if (!new RegExp(PASSWORD_PATTERN).test(password)) throw new Error('demo password does not fit the rule');
  return password;
}

type FirstAdmin = NonNullable<IdentityOptions['admin']>;
const ADMIN_VARIABLES = { username: 'ADMIN_USERNAME', email: 'ADMIN_EMAIL', password: 'ADMIN_PASSWORD' } as const;

/**
 * The first administrator from ADMIN_USERNAME, ADMIN_EMAIL and ADMIN_PASSWORD: all three, or none (undefined).
 * Some but not all, or values no one could log in with, fail the start instead of quietly making a demo admin.
 */
export function firstAdminFromEnvironment(
  env: Partial<Record<(typeof ADMIN_VARIABLES)[keyof FirstAdmin], string | undefined>>,
): FirstAdmin | undefined {
  const admin = {
    username: env[ADMIN_VARIABLES.username]?.trim() ?? '',
    email: env[ADMIN_VARIABLES.email]?.trim() ?? '',
    password: env[ADMIN_VARIABLES.password] ?? '',
  };
  const missing = Object.entries(ADMIN_VARIABLES)
    .filter(([field]) => admin[field as keyof FirstAdmin] === '')
    .map(([, variable]) => variable);
  if (missing.length === Object.keys(ADMIN_VARIABLES).length) return undefined;
  if (missing.length > 0) {
    throw new ConfigError(
      `Set ADMIN_USERNAME, ADMIN_EMAIL and ADMIN_PASSWORD together, or none of them: ${missing.join(', ')} missing`,
    );
  }
  const problems = Object.entries({
    ...validateForm(LOGIN_RULES, admin),
    ...validateForm(FORGOT_PASSWORD_RULES, admin),
  }).map(([field, message]) => `${ADMIN_VARIABLES[field as keyof FirstAdmin]}: ${message}`);
  if (problems.length > 0) throw new ConfigError(`Invalid first administrator: ${problems.join('; ')}`);
  return admin;
}

/**
 * Creates the first administrator on start when none exists: from configuration, or a demo admin
 * (docs/product.md §8.7).
 */
export async function ensureFirstAdmin(
  { users, accounts, log }: { users: Pick<UserRepository, 'anyWithRole'>; accounts: Accounts; log: FastifyBaseLogger },
  options: Pick<IdentityOptions, 'admin' | 'demoAdmin' | 'onDemoAdminCreated'>,
): Promise<void> {
  if (await users.anyWithRole(ROLES.admin)) {
    if (options.admin) log.info({ username: options.admin.username }, 'an administrator exists; ADMIN_* ignored');
    return;
  }
  const admin =
    options.admin ??
    (options.demoAdmin ? { username: 'webcamadmin', email: 'admin@seecam.example', password: demoPassword() } : null);
  if (!admin) return;
  await accounts.createUser(
    {
      userName: admin.username,
      email: admin.email,
      firstName: 'Portal',
      lastName: 'Admin',
      phoneNumber: '055 000 00 00',
      passwordHash: await hashPassword(admin.password),
    },
    [ROLES.admin],
  );
  if (!options.admin) {
    log.warn({ username: admin.username }, 'demo administrator created');
    options.onDemoAdminCreated?.({ username: admin.username, password: admin.password });
  } else {
    log.info({ username: admin.username }, 'first administrator created');
  }
}
