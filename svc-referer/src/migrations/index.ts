import type { Migration } from 'kysely/migration';
import * as refererUsers from './2026-11-22-01-referer-users.ts';
import * as knownUsers from './2026-11-22-02-known-users.ts';
import * as layers from './2026-11-22-03-layers.ts';
import * as outbox from './2026-11-25-01-outbox.ts';
import * as outboxRequestId from './2026-11-27-01-outbox-request-id.ts';

export const migrations: Record<string, Migration> = {
  '2026-11-22-01-referer-users': refererUsers,
  '2026-11-22-02-known-users': knownUsers,
  '2026-11-22-03-layers': layers,
  '2026-11-25-01-outbox': outbox,
  '2026-11-27-01-outbox-request-id': outboxRequestId,
};
