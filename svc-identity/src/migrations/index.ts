import type { Migration } from 'kysely/migration';
import * as users from './2026-11-22-01-users.ts';
import * as accounts from './2026-11-22-02-accounts.ts';
import * as outbox from './2026-11-26-02-outbox.ts';
import * as revokedAccess from './2026-11-26-03-revoked-access.ts';
import * as handledEvents from './2026-11-26-04-handled-events.ts';
import * as outboxRequestId from './2026-11-27-01-outbox-request-id.ts';

export const migrations: Record<string, Migration> = {
  '2026-11-22-01-users': users,
  '2026-11-22-02-accounts': accounts,
  '2026-11-26-02-outbox': outbox,
  '2026-11-26-03-revoked-access': revokedAccess,
  '2026-11-26-04-handled-events': handledEvents,
  '2026-11-27-01-outbox-request-id': outboxRequestId,
};
