import { PASSWORD_PATTERN, ROLES } from '@lakecams/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { randomInt } from 'node:crypto';
import type { IdentityOptions } from '../../options.ts';
import { hashPassword } from '../../passwords.ts';

function demoPassword(): string {
  const pick = (alphabet: string, n: number) =>
    Array.from({ length: n }, () => alphabet[randomInt(alphabet.length)]).join('');
  // Always satisfies the password rule: lower, upper, digit, special, 16 characters.
  const password = `${pick('abcdefghijkmnpqrstuvwxyz', 6)}${pick('ABCDEFGHJKLMNPQRSTUVWXYZ', 4)}${pick('23456789', 4)}${pick('@$!%*?&', 2)}`;
  if (!new RegExp(PASSWORD_PATTERN).test(password)) throw new Error('demo password does not fit the rule');
  return password;
}

/** Creates the first administrator on start when none exists: from configuration, or a demo admin. */
export default fp(
  async (app: FastifyInstance, options: Pick<IdentityOptions, 'admin' | 'demoAdmin' | 'onDemoAdminCreated'>) => {
    if (await app.users.anyWithRole(ROLES.admin)) return;
    const admin =
      options.admin ??
      (options.demoAdmin ? { username: 'webcamadmin', email: 'admin@seecam.example', password: demoPassword() } : null);
    if (!admin) return;
    const user = await app.users.insert({
      userName: admin.username,
      email: admin.email,
      firstName: 'Portal',
      lastName: 'Admin',
      phoneNumber: '055 000 00 00',
      passwordHash: await hashPassword(admin.password),
      emailConfirmed: true,
    });
    await app.users.addRole(user.id, ROLES.admin);
    await app.announceUser(user.id, 'created');
    if (!options.admin) {
      app.log.warn({ username: admin.username }, 'demo administrator created');
      options.onDemoAdminCreated?.({ username: admin.username, password: admin.password });
    } else {
      app.log.info({ username: admin.username }, 'first administrator created');
    }
  },
  { name: 'first-admin', dependencies: ['accounts'] },
);
