import type { KnownUser } from '@lakecams/service-kit';
import type { Kysely } from 'kysely';
import type { Database } from '../database.ts';

/** Names and emails of users, as svc-identity announces them (followed in src/messaging.ts). */
export function createKnownUserRepository(db: Kysely<Database>) {
  return {
    async upsert(user: KnownUser) {
      await db
        .insertInto('knownUsers')
        .values(user)
        .onConflict((oc) =>
          oc
            .column('id')
            .doUpdateSet({ userName: user.userName, email: user.email, emailConfirmed: user.emailConfirmed }),
        )
        .execute();
    },
    async isKnown(id: string) {
      return (await db.selectFrom('knownUsers').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
    },

    /** The first of these users svc-identity never announced, if any. */
    async firstUnknownUser(userIds: string[]): Promise<string | undefined> {
      if (userIds.length === 0) return undefined;
      const known = await db.selectFrom('knownUsers').select('id').where('id', 'in', userIds).execute();
      const ids = new Set(known.map((user) => user.id));
      return userIds.find((id) => !ids.has(id));
    },
  };
}

export type KnownUserRepository = ReturnType<typeof createKnownUserRepository>;
