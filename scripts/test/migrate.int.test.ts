import { SERVICES } from '@lakecams/contracts';
import { testDatabasePrefix } from '@lakecams/service-kit/testing';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

describe('npm run migrate', () => {
  const databases = testDatabasePrefix();
  const env = { ...process.env, ...databases.environment(SERVICES) };
  const migrate = (args: string[], cwd = ROOT) =>
    run(process.execPath, [fileURLToPath(new URL('../migrate.ts', import.meta.url)), ...args], { cwd, env });

  async function tables(service: string): Promise<string[]> {
    const client = new pg.Client(env[`DATABASE_URL_${service.toUpperCase()}`]);
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        "select table_name as name from information_schema.tables where table_schema = 'public'",
      );
      return rows.map((row) => row.name);
    } finally {
      await client.end();
    }
  }

  afterAll(() => databases.dropAll(SERVICES));

  it('migrates one service when named, and only that one', async () => {
    const { stdout } = await run('npm', ['run', 'migrate', '-w', 'svc-webcam'], { cwd: ROOT, env });
    expect(stdout).toMatch(/svc-webcam: applied \S+webcams/);
    expect(stdout).not.toMatch(/svc-(identity|referer|imaging):/);
    expect(await tables('webcam')).toContain('webcams');
  });

  it('creates and migrates every service database, then finds them up to date', async () => {
    const first = await migrate([]);
    expect(first.stdout).toContain('svc-webcam: up to date');
    for (const service of ['identity', 'referer', 'imaging']) expect(first.stdout).toMatch(`svc-${service}: applied`);
    expect(await tables('identity')).toContain('users');

    const second = await migrate([]);
    for (const service of SERVICES) expect(second.stdout).toContain(`svc-${service}: up to date`);
  });

  it('refuses an unknown service with the list of services', async () => {
    await expect(migrate(['weather'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Unknown service weather; the services are identity, webcam, referer, imaging'),
    });
  });

  it('says which variable to set when no database is configured', async () => {
    const bare = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('DATABASE_URL')));
    await expect(
      run(process.execPath, [fileURLToPath(new URL('../migrate.ts', import.meta.url)), 'referer'], { env: bare }),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('Set DATABASE_URL or DATABASE_URL_REFERER') });
  });
});
