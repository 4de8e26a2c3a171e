import type { CodeAssignment, OwnedCodeAssignment } from '@lakecams/contracts';
import { inTransaction } from '@lakecams/service-kit';
import type { Kysely } from 'kysely';
import type { Database } from '../database.ts';
import { readableCode } from '../secrets.ts';

/** Feature codes: each grants the role named by its feature while it is assigned. */
export function createCodeRepository(db: Kysely<Database>) {
  const assignments = () =>
    db
      .selectFrom('codeAssignments')
      .innerJoin('codes', 'codes.id', 'codeAssignments.codeId')
      .innerJoin('users', 'users.id', 'codeAssignments.userId')
      .select([
        'codeAssignments.id',
        'codeAssignments.userId',
        'users.userName',
        'codes.code',
        'codes.feature',
        'codeAssignments.assignedAt',
      ]);
  const toAssignment = (row: { assignedAt: Date } & Omit<CodeAssignment, 'assignedAt'>): CodeAssignment => ({
    ...row,
    assignedAt: row.assignedAt.toISOString(),
  });

  return {
    async create(feature: string, count: number): Promise<string[]> {
      const codes = Array.from({ length: count }, () => readableCode(12));
      await db
        .insertInto('codes')
        .values(codes.map((code) => ({ code, feature })))
        .execute();
      return codes;
    },
    /** Assign a free code to the user; undefined when the code is unknown or already taken. */
    async assign(code: string, userId: string): Promise<CodeAssignment | undefined> {
      const found = await db
        .selectFrom('codes')
        .select('id')
        .where('code', '=', code.trim().toUpperCase())
        .executeTakeFirst();
      if (!found) return undefined;
      const inserted = await db
        .insertInto('codeAssignments')
        .values({ codeId: found.id, userId })
        .onConflict((oc) => oc.column('codeId').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) return undefined;
      const row = await assignments().where('codeAssignments.id', '=', inserted.id).executeTakeFirstOrThrow();
      return toAssignment(row);
    },
    /** One user's assignments, newest first. */
    async list(userId: string): Promise<CodeAssignment[]> {
      const rows = await assignments()
        .where('codeAssignments.userId', '=', userId)
        .orderBy('codeAssignments.assignedAt', 'desc')
        .execute();
      return rows.map(toAssignment);
    },
    /** Every user's assignments with the owner's email, newest first (administration). */
    async listWithOwners(): Promise<OwnedCodeAssignment[]> {
      const rows = await assignments()
        .select('users.email')
        .orderBy('codeAssignments.assignedAt', 'desc')
        .orderBy('codeAssignments.id')
        .execute();
      return rows.map(({ email, ...row }) => ({ ...toAssignment(row), email }));
    },
    async removeAssignment(id: string, userId: string): Promise<boolean> {
      const result = await db
        .deleteFrom('codeAssignments')
        .where('id', '=', id)
        .where('userId', '=', userId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    /** Remove the assignment and its code, so the code cannot be redeemed again. */
    async removeFromSystem(id: string, userId: string): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        const removed = await trx
          .deleteFrom('codeAssignments')
          .where('id', '=', id)
          .where('userId', '=', userId)
          .returning('codeId')
          .executeTakeFirst();
        if (!removed) return false;
        await trx.deleteFrom('codes').where('id', '=', removed.codeId).execute();
        return true;
      });
    },
  };
}

export type CodeRepository = ReturnType<typeof createCodeRepository>;
