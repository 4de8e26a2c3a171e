/** For tests of other packages (`@lakecams/svc-identity/testing`). */
export type { Database } from './database.ts';
export { announceUser } from './messaging.ts';
