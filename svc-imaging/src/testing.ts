import { createKysely } from '@lakecams/service-kit';
import type { Database } from './database.ts';

/** For tests of other packages: drive a capture with a picture of their own (`@lakecams/svc-imaging/testing`). */
export { captureTick } from './capture/capture-tick.ts';
export type { Database } from './database.ts';

/** A test's own connection to svc-imaging's database, typed by its tables; the test destroys it. */
export function openImagingDatabase(connectionString: string) {
  return createKysely<Database>({ connectionString });
}
