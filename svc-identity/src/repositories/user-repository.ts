import type { UserSummary } from '@lakecams/contracts';
import { inTransaction } from '@lakecams/service-kit';
import { type Kysely, sql } from 'kysely';
import type { Database, UserRow } from '../database.ts';

export function toSummary(user: UserRow): UserSummary {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    userName: user.userName,
    phoneNumber: user.phoneNumber,
    emailConfirmed: user.emailConfirmed,
  };
}

/** Users, their own roles and the confirmations of their email addresses. */
export function createUserRepository(db: Kysely<Database>) {
  return {
    byId(id: string) {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
    byUserName(userName: string) {
      return db
        .selectFrom('users')
        .selectAll()
        .where(sql`lower(user_name)`, '=', userName.toLowerCase())
        .executeTakeFirst();
    },
    byEmail(email: string) {
      return db.selectFrom('users').selectAll().where(sql`lower(email)`, '=', email.toLowerCase()).executeTakeFirst();
    },
    all() {
      return db.selectFrom('users').selectAll().orderBy('lastName').orderBy('firstName').execute();
    },
    insert(user: {
      userName: string;
      email: string;
      firstName: string;
      lastName: string;
      phoneNumber: string;
      passwordHash: string;
      emailConfirmed?: boolean;
    }) {
      return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
    },
    updateProfile(id: string, profile: { firstName: string; lastName: string; phoneNumber: string }) {
      return db.updateTable('users').set(profile).where('id', '=', id).returningAll().executeTakeFirst();
    },
    async confirmEmail(id: string): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ emailConfirmed: true })
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async setPasswordHash(id: string, passwordHash: string): Promise<void> {
      await db.updateTable('users').set({ passwordHash }).where('id', '=', id).execute();
    },
    /** Store the (hashed) token the registration mail carries; the address is confirmed with it. */
    async addEmailConfirmation(userId: string, confirmation: { tokenHash: string; expiresAt: Date }): Promise<void> {
      await db
        .insertInto('emailConfirmations')
        .values({ userId, ...confirmation })
        .execute();
    },
    emailConfirmation(userId: string) {
      return db.selectFrom('emailConfirmations').selectAll().where('userId', '=', userId).executeTakeFirst();
    },
    /** The address is confirmed: the user may log in, and the confirmation is used up. */
    async confirmRegistration(userId: string): Promise<void> {
      await inTransaction(db, async (trx) => {
        await trx.updateTable('users').set({ emailConfirmed: true }).where('id', '=', userId).execute();
        await trx.deleteFrom('emailConfirmations').where('userId', '=', userId).execute();
      });
    },
    /** Own roles plus the roles granted by redeemed feature codes. */
    async roles(userId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('userRoles')
        .select('role')
        .where('userId', '=', userId)
        .union(
          db
            .selectFrom('codeAssignments')
            .innerJoin('codes', 'codes.id', 'codeAssignments.codeId')
            .select('codes.feature as role')
            .where('codeAssignments.userId', '=', userId),
        )
        .execute();
      return rows.map((r) => r.role).sort();
    },
    async addRole(userId: string, role: string): Promise<void> {
      await db
        .insertInto('userRoles')
        .values({ userId, role })
        .onConflict((oc) => oc.doNothing())
        .execute();
    },
    async anyWithRole(role: string): Promise<boolean> {
      return (
        (await db.selectFrom('userRoles').select('userId').where('role', '=', role).limit(1).executeTakeFirst()) !==
        undefined
      );
    },
  };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
