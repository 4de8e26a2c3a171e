import type { RefererUser } from '@lakecams/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../database.ts';
import { announceLayersOf } from './layer-repository.ts';

/** A referer user as stored: the page and whose it is. */
export interface RefererUserInput {
  userId: string;
  userEmail: string;
  url: string;
}

/** Referer users: a user's pages that embed camera images. Their layers are announced with every change. */
export function createRefererUserRepository(db: Kysely<Database>) {
  const refererUsers = () => db.selectFrom('refererUsers').select(['id', 'userEmail', 'url']);
  return {
    get: async (id: number): Promise<RefererUser | null> =>
      (await refererUsers().where('id', '=', id).executeTakeFirst()) ?? null,
    all: (): Promise<RefererUser[]> => refererUsers().orderBy('userEmail').orderBy('url').execute(),
    ofUser: (userId: string): Promise<RefererUser[]> =>
      refererUsers().where('userId', '=', userId).orderBy('url').execute(),
    /** Every url that uses the service, once. */
    urls: async (): Promise<string[]> =>
      (await db.selectFrom('refererUsers').select('url').distinct().orderBy('url').execute()).map((r) => r.url),
    /** Ids of the referer users with this url (any url when undefined) of this user (anybody's when undefined). */
    async ids(filter: { url?: string | undefined; userId?: string | undefined }): Promise<number[]> {
      let query = db.selectFrom('refererUsers').select('id');
      if (filter.url !== undefined) query = query.where('url', '=', filter.url);
      if (filter.userId !== undefined) query = query.where('userId', '=', filter.userId);
      return (await query.execute()).map((r) => r.id);
    },
    ownsPage: async (userId: string, url: string): Promise<boolean> =>
      (await db
        .selectFrom('refererUsers')
        .select('id')
        .where('userId', '=', userId)
        .where('url', '=', url)
        .executeTakeFirst()) !== undefined,
    async insert(values: RefererUserInput): Promise<void> {
      await db.insertInto('refererUsers').values(values).execute();
    },
    /** False when there is no such referer user. */
    update: (id: number, values: RefererUserInput): Promise<boolean> =>
      db.transaction().execute(async (trx) => {
        const updated = await trx.updateTable('refererUsers').set(values).where('id', '=', id).executeTakeFirst();
        if (!updated.numUpdatedRows) return false;
        // Layers are drawn for the page's url: svc-imaging must learn the new one.
        await announceLayersOf(trx, id, false);
        return true;
      }),
    /** False when there is no such referer user. */
    remove: (id: number): Promise<boolean> =>
      db.transaction().execute(async (trx) => {
        // Its layers go with it (cascade).
        await announceLayersOf(trx, id, true);
        const removed = await trx.deleteFrom('refererUsers').where('id', '=', id).executeTakeFirst();
        return removed.numDeletedRows > 0n;
      }),
  };
}

export type RefererUserRepository = ReturnType<typeof createRefererUserRepository>;
