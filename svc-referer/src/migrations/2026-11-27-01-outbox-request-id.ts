import { addOutboxRequestId, dropOutboxRequestId } from '@lakecams/service-kit';
import type { Kysely } from 'kysely';

/** Each event keeps the id of the request that caused it, so the request can be followed over the bus. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addOutboxRequestId(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropOutboxRequestId(db);
}
