import type { Migration } from 'kysely/migration';
import * as webcams from './2026-11-22-01-webcams.ts';
import * as access from './2026-11-22-02-access.ts';
import * as outbox from './2026-11-25-01-outbox.ts';
import * as bestOf from './2026-11-25-02-best-of.ts';
import * as outboxRequestId from './2026-11-27-01-outbox-request-id.ts';
import * as frozenImages from './2026-11-27-02-frozen-images.ts';

export const migrations: Record<string, Migration> = {
  '2026-11-22-01-webcams': webcams,
  '2026-11-22-02-access': access,
  '2026-11-25-01-outbox': outbox,
  '2026-11-25-02-best-of': bestOf,
  '2026-11-27-01-outbox-request-id': outboxRequestId,
  '2026-11-27-02-frozen-images': frozenImages,
};
