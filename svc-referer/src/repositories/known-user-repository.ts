import type { KnownUser } from '@lakecams/service-kit';
import type { Kysely } from 'kysely';
import type { Database } from '../database.ts';

/**
 * Users as svc-identity announces them: who can get a referer page, and whom an Admin may impersonate.
 * It is the service's `KnownUserStore`.
 */
export function createKnownUserRepository(db: Kysely<Database>) {
  return {
    /** Keep the user; a changed email follows into the referer list. */
    async upsert({ id, userName, email, emailConfirmed }: KnownUser): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('knownUsers')
          .values({ id, userName, email, emailConfirmed })
          .onConflict((oc) => oc.column('id').doUpdateSet({ userName, email, emailConfirmed }))
          .execute();
        await trx.updateTable('refererUsers').set({ userEmail: email }).where('userId', '=', id).execute();
      });
    },
    isKnown: async (id: string): Promise<boolean> =>
      (await db.selectFrom('knownUsers').select('id').where('id', '=', id).executeTakeFirst()) !== undefined,
    /** Users that can become referer users: those with an email. */
    withEmail: () =>
      db
        .selectFrom('knownUsers')
        .select(['id', 'userName', 'email'])
        .where('email', '!=', '')
        .orderBy('email')
        .execute(),
    byEmail: (email: string) =>
      db.selectFrom('knownUsers').select(['id', 'email']).where('email', '=', email).executeTakeFirst(),
  };
}

export type KnownUserRepository = ReturnType<typeof createKnownUserRepository>;
