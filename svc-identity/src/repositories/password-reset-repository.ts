import type { Kysely } from 'kysely';
import type { Database } from '../database.ts';

/** The reset code mailed to a user (one a user, stored hashed), and the wrong guesses made at it. */
export function createPasswordResetRepository(db: Kysely<Database>) {
  return {
    /** The user's code, replacing an earlier one (and its count of wrong guesses). */
    async store(userId: string, codeHash: string, expiresAt: Date): Promise<void> {
      const reset = { codeHash, expiresAt, failedAttempts: 0 };
      await db
        .insertInto('passwordResets')
        .values({ userId, ...reset })
        .onConflict((oc) => oc.column('userId').doUpdateSet(reset))
        .execute();
    },
    of(userId: string) {
      return db.selectFrom('passwordResets').selectAll().where('userId', '=', userId).executeTakeFirst();
    },
    async countFailedAttempt(userId: string): Promise<void> {
      await db
        .updateTable('passwordResets')
        .set((eb) => ({ failedAttempts: eb('failedAttempts', '+', 1) }))
        .where('userId', '=', userId)
        .execute();
    },
    async remove(userId: string): Promise<void> {
      await db.deleteFrom('passwordResets').where('userId', '=', userId).execute();
    },
  };
}

export type PasswordResetRepository = ReturnType<typeof createPasswordResetRepository>;
