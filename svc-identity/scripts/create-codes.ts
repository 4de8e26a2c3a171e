import { createKysely, databaseUrlFor, withDatabase } from '@lakecams/service-kit';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Database } from '../src/database.ts';
import { createCodeRepository } from '../src/repositories/code-repository.ts';
import { CODE_FEATURES } from '../src/routes/api/Code/index.ts';

// npm run codes:create -w svc-identity -- --feature Premium --count 10: prints the new codes, one a line.

function fail(message: string): never {
  console.error(`${message}\nusage: --feature <${CODE_FEATURES.join('|')}> --count <1..1000>`);
  process.exit(2);
}

let values: { feature?: string | undefined; count: string };
try {
  ({ values } = parseArgs({ options: { feature: { type: 'string' }, count: { type: 'string', default: '1' } } }));
} catch (err) {
  fail((err as Error).message);
}
const feature = values.feature ?? '';
const count = Number(values.count);
if (!(CODE_FEATURES as readonly string[]).includes(feature)) {
  fail(feature ? `Unknown feature "${feature}"; a code grants ${CODE_FEATURES.join(' or ')}` : '--feature is missing');
}
if (!/^\d+$/.test(values.count) || count < 1 || count > 1000) {
  fail(`--count must be a whole number from 1 to 1000, not "${values.count}"`);
}

/** The embedded portal's database when no DATABASE_URL is set (the portal must be running). */
function embeddedDatabaseUrl(): string | undefined {
  const dataDir = process.env.DATA_DIR ?? join(process.env.INIT_CWD ?? process.cwd(), 'data');
  const passwordFile = join(dataDir, 'postgres.password');
  if (!existsSync(passwordFile)) return undefined;
  const password = encodeURIComponent(readFileSync(passwordFile, 'utf8').trim());
  const port = process.env.EMBEDDED_PG_PORT ?? '54329';
  return withDatabase(`postgres://postgres:${password}@127.0.0.1:${port}/postgres`, 'lakecams_identity');
}

const url = databaseUrlFor('identity') ?? embeddedDatabaseUrl();
if (!url) {
  console.error('Set DATABASE_URL, or run this next to a running `npm start` (it reads ./data).');
  process.exit(2);
}
const db = createKysely<Database>({ connectionString: url });
try {
  for (const code of await createCodeRepository(db).create(feature, count)) console.log(code);
} finally {
  await db.destroy();
}
