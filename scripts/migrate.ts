import { SERVICES } from '@lakecams/contracts';
import { createKysely, databaseUrlFor, ensureDatabase, migrateToLatest } from '@lakecams/service-kit';
import { SERVICE_DEFINITIONS } from './services.ts';

/** Distributed mode: bring every service's own database to its latest migration (services also do this on start). */
for (const service of SERVICES) {
  const url = databaseUrlFor(service);
  const migrations = SERVICE_DEFINITIONS[service].migrations;
  if (!migrations) continue;
  if (!url) throw new Error(`Set DATABASE_URL or DATABASE_URL_${service.toUpperCase()}`);
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
