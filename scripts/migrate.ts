import { SERVICES, type ServiceName } from '@lakecams/contracts';
import { createKysely, databaseUrlFor, ensureDatabase, migrateToLatest } from '@lakecams/service-kit';
import { SERVICE_DEFINITIONS } from './services.ts';

/**
 * Brings service databases to their latest migration (services also do this on start):
 * `npm run migrate` for all of them, `npm run migrate -w svc-webcam` (or `npm run migrate -- webcam`) for one.
 */
const named = process.argv.slice(2).map((name) => name.replace(/^svc-/, ''));
const unknown = named.filter((name) => !(SERVICES as readonly string[]).includes(name));
if (unknown.length > 0) {
  console.error(`Unknown service ${unknown.join(', ')}; the services are ${SERVICES.join(', ')}`);
  process.exit(2);
}
const services = named.length > 0 ? (named as ServiceName[]) : SERVICES;

for (const service of services) {
  const url = databaseUrlFor(service);
  const migrations = SERVICE_DEFINITIONS[service].migrations;
  if (!migrations) continue;
  if (!url) {
    console.error(`Set DATABASE_URL or DATABASE_URL_${service.toUpperCase()} to migrate svc-${service}`);
    process.exit(2);
  }
  await ensureDatabase(url);
  const db = createKysely<unknown>({ connectionString: url });
  try {
    const { results } = await migrateToLatest(db, migrations);
    const applied = (results ?? []).map((r) => r.migrationName);
    console.log(`svc-${service}: ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}`);
  } finally {
    await db.destroy();
  }
}
