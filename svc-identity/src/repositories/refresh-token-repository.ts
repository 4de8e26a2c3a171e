import type { Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { Database } from '../database.ts';
import { randomToken, sha256 } from '../secrets.ts';

/** A refresh token and its family: one login, whose access tokens carry the family id as `sid`. */
export interface IssuedRefreshToken {
  token: string;
  familyId: string;
}

export type RotationResult =
  | ({ outcome: 'rotated'; userId: string } & IssuedRefreshToken)
  /** `ended`: this reuse ended the login (it was not ended before), so its access tokens are still to revoke. */
  | { outcome: 'reused'; familyId: string; ended: boolean }
  | { outcome: 'invalid' };

/** Refresh tokens: random, stored hashed, rotated on every use; a reused token revokes its whole family. */
export function createRefreshTokens(db: Kysely<Database>, ttlDays: number) {
  const expiry = () => new Date(Date.now() + ttlDays * 24 * 3600 * 1000);

  async function issue(userId: string, familyId: string = randomUUID()): Promise<IssuedRefreshToken> {
    const token = randomToken(32);
    await db
      .insertInto('refreshTokens')
      .values({ userId, familyId, tokenHash: sha256(token), expiresAt: expiry() })
      .execute();
    return { token, familyId };
  }

  /** Whether the family still had a token that was not revoked. */
  async function revokeFamily(familyId: string): Promise<boolean> {
    const result = await db
      .updateTable('refreshTokens')
      .set({ revokedAt: new Date() })
      .where('familyId', '=', familyId)
      .where('revokedAt', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  return {
    issue,
    revokeFamily,
    async rotate(token: string): Promise<RotationResult> {
      const tokenHash = sha256(token);
      // One atomic claim: of two concurrent uses of the same token only one can win.
      const claimed = await db
        .updateTable('refreshTokens')
        .set({ rotatedAt: new Date() })
        .where('tokenHash', '=', tokenHash)
        .where('rotatedAt', 'is', null)
        .where('revokedAt', 'is', null)
        .where('expiresAt', '>', new Date())
        .returning(['userId', 'familyId'])
        .executeTakeFirst();
      if (claimed)
        return { outcome: 'rotated', userId: claimed.userId, ...(await issue(claimed.userId, claimed.familyId)) };
      const known = await db
        .selectFrom('refreshTokens')
        .select(['familyId', 'rotatedAt'])
        .where('tokenHash', '=', tokenHash)
        .executeTakeFirst();
      if (known?.rotatedAt)
        return { outcome: 'reused', familyId: known.familyId, ended: await revokeFamily(known.familyId) };
      return { outcome: 'invalid' };
    },
    /** Revokes the token's family; its id, when the token was known. */
    async revoke(token: string): Promise<string | undefined> {
      const known = await db
        .selectFrom('refreshTokens')
        .select('familyId')
        .where('tokenHash', '=', sha256(token))
        .executeTakeFirst();
      if (known) await revokeFamily(known.familyId);
      return known?.familyId;
    },
    /** Revokes every login of the user; the ids of the families it ended. */
    async revokeAllOf(userId: string): Promise<string[]> {
      const revoked = await db
        .updateTable('refreshTokens')
        .set({ revokedAt: new Date() })
        .where('userId', '=', userId)
        .where('revokedAt', 'is', null)
        .returning('familyId')
        .execute();
      return [...new Set(revoked.map((row) => row.familyId))];
    },
  };
}

export type RefreshTokens = ReturnType<typeof createRefreshTokens>;
