import { ROLES } from '@lakecams/contracts';
import { generateSigningKeys } from '@lakecams/service-kit';
import { createTestDatabase } from '@lakecams/service-kit/testing';
import { describe, expect, it } from 'vitest';
import { ADMIN, buildIdentityService, type IdentityTestService } from '../src/testing.ts';
import { runEntryPoint } from './helpers.ts';

type Identity = IdentityTestService;

async function adminUserNames(identity: Identity): Promise<string[]> {
  const rows = await identity.db
    .selectFrom('userRoles')
    .innerJoin('users', 'users.id', 'userRoles.userId')
    .select('users.userName')
    .where('userRoles.role', '=', ROLES.admin)
    .execute();
  return rows.map((row) => row.userName);
}

describe('first administrator', () => {
  it('creates the configured admin with a confirmed email and role Admin, and no demo admin', async () => {
    const demo: unknown[] = [];
    const identity = await buildIdentityService({
      options: { admin: ADMIN, demoAdmin: true, onDemoAdminCreated: (c) => demo.push(c) },
    });
    try {
      const login = await identity.client().post('/api/Authenticate/Authenticate', ADMIN);
      expect(login.status, login.text).toBe(200);
      expect(login.json).toMatchObject({ userName: ADMIN.username, email: ADMIN.email, emailConfirmed: true });
      expect(login.json.roles).toEqual([ROLES.admin]);
      expect(await adminUserNames(identity)).toEqual([ADMIN.username]);
      expect(demo).toEqual([]);
    } finally {
      await identity.close();
    }
  });

  it('creates a demo admin once: later starts on the same database add no admin and report no credentials', async () => {
    const database = await createTestDatabase('identity');
    const created: { username: string; password: string }[] = [];
    const demoOptions = {
      admin: undefined,
      demoAdmin: true,
      onDemoAdminCreated: (c: (typeof created)[0]) => created.push(c),
    };
    try {
      const first = await buildIdentityService({ options: demoOptions, database });
      await first.close();
      expect(created).toHaveLength(1);

      const second = await buildIdentityService({ options: demoOptions, database });
      try {
        expect(created).toHaveLength(1);
        expect(await adminUserNames(second)).toEqual([created[0]?.username]);
        const login = await second.client().post('/api/Authenticate/Authenticate', created[0]);
        expect(login.status, login.text).toBe(200);
        expect(login.json.roles).toEqual([ROLES.admin]);
      } finally {
        await second.close();
      }

      // ADMIN_* given later changes nothing either: an administrator exists.
      const third = await buildIdentityService({ options: { ...demoOptions, admin: ADMIN }, database });
      try {
        expect(created).toHaveLength(1);
        expect(await adminUserNames(third)).toEqual([created[0]?.username]);
        expect((await third.client().post('/api/Authenticate/Authenticate', ADMIN)).status).toBe(401);
      } finally {
        await third.close();
      }
    } finally {
      await database.drop();
    }
  });

  it('svc-identity refuses to start when only some of ADMIN_USERNAME, ADMIN_EMAIL, ADMIN_PASSWORD are set', async () => {
    const { privateKey } = generateSigningKeys();
    const started = await runEntryPoint('src/server.ts', [], {
      JWT_PRIVATE_KEY: privateKey,
      ADMIN_USERNAME: ADMIN.username,
      DEMO_ADMIN: 'true',
      HOST: '127.0.0.1',
      PORT: '0',
    });
    expect(started.code, started.stderr).not.toBe(0);
    expect(started.code, 'exited rather than being killed').not.toBeNull();
    expect(started.stderr).toContain(
      'Set ADMIN_USERNAME, ADMIN_EMAIL and ADMIN_PASSWORD together, or none of them: ADMIN_EMAIL, ADMIN_PASSWORD missing',
    );
  });
});
