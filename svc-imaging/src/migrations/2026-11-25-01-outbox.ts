import { createOutboxTable, dropOutboxTable } from '@lakecams/service-kit';
import type { Kysely } from 'kysely';

/** Events are written there in the transaction of the change they announce; the kit's relay sends them on. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createOutboxTable(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropOutboxTable(db);
}
