import { createKysely, migrateToLatest } from '@lakecams/service-kit';
import { createTestDatabase } from '@lakecams/service-kit/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/database.ts';
import { migrations } from '../src/migrations/index.ts';
import { runEntryPoint } from './helpers.ts';

describe('npm run codes:create (scripts/create-codes.ts)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Kysely<Database>;
  const createCodes = (...args: string[]) =>
    runEntryPoint('scripts/create-codes.ts', args, { DATABASE_URL_IDENTITY: database.url });
  const storedCodes = async () => db.selectFrom('codes').select(['code', 'feature']).orderBy('code').execute();

  beforeAll(async () => {
    database = await createTestDatabase('identity');
    db = createKysely<Database>({ connectionString: database.url });
    await migrateToLatest(db, migrations);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('prints and stores the requested number of codes for the feature', async () => {
    const run = await createCodes('--feature', 'Premium', '--count', '3');
    expect(run.code, run.stderr).toBe(0);
    const printed = run.stdout.trim().split('\n');
    expect(printed).toHaveLength(3);
    for (const code of printed) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{12}$/);
    expect(await storedCodes()).toEqual(printed.sort().map((code) => ({ code, feature: 'Premium' })));
  });

  it.each([
    [['--feature', 'Admin'], 'Unknown feature "Admin"; a code grants Premium or Referer'],
    [['--count', '2'], '--feature is missing'],
    [['--feature', 'Referer', '--count', '0'], '--count must be a whole number from 1 to 1000, not "0"'],
    [['--feature', 'Referer', '--count', '1001'], '--count must be a whole number from 1 to 1000, not "1001"'],
    [['--feature', 'Referer', '--count', '2.5'], '--count must be a whole number from 1 to 1000, not "2.5"'],
    [['--feature', 'Referer', '--cuont', '2'], "Unknown option '--cuont'"],
  ])('refuses %j with a non-zero exit, a clear message and no codes', async (args, message) => {
    const before = await storedCodes();
    const run = await createCodes(...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain('usage: --feature <Premium|Referer> --count <1..1000>');
    expect(run.stdout).toBe('');
    expect(await storedCodes()).toEqual(before);
  });
});
