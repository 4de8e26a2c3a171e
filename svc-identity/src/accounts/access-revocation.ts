import type { AccessRevoked, PayloadOf } from '@lakecams/contracts/messages';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../database.ts';
import { announceAccessRevoked } from '../messaging.ts';
import { DEFAULTS, type IdentityOptions } from '../options.ts';

type AccessRevocation = PayloadOf<typeof AccessRevoked>;

export interface AccessRevocations {
  /** Log-off: refuse access tokens with these token or session ids everywhere until they have expired. */
  revokeAccessTokens(ids: string[]): Promise<void>;
  /** Announce the stored revocations that still hold (on start). */
  announceStored(): Promise<void>;
}

/**
 * Revocations are stored here and announced on the bus, which every service's replicas follow. A start
 * announces the still valid ones again: the in-process bus of the embedded portal forgets them on a restart.
 */
export function createAccessRevocations(
  db: Kysely<Database>,
  /** The service kit's refusal on this replica (`app.revokeAccess`). */
  revokeHere: FastifyInstance['revokeAccess'],
  options: Pick<IdentityOptions, 'accessTokenTtlSeconds'>,
): AccessRevocations {
  const ttlSeconds = options.accessTokenTtlSeconds ?? DEFAULTS.accessTokenTtlSeconds;

  async function announce(revocation: AccessRevocation, store: boolean): Promise<void> {
    await db.transaction().execute(async (trx) => {
      if (store) {
        await trx.deleteFrom('revokedAccess').where('expiresAt', '<=', new Date()).execute();
        await trx
          .insertInto('revokedAccess')
          .values(revocation.ids.map((id) => ({ id, expiresAt: revocation.expiresAt })))
          .onConflict((oc) => oc.column('id').doUpdateSet({ expiresAt: revocation.expiresAt }))
          .execute();
      }
      await announceAccessRevoked(trx, revocation);
    });
    // This replica refuses them at once; the others as soon as the event reaches them.
    revokeHere(revocation);
  }

  return {
    async revokeAccessTokens(ids: string[]) {
      const unique = [...new Set(ids)];
      // Every token of these ids was signed before now, so none outlives one token lifetime from now.
      const expiresAt = new Date(Date.now() + ttlSeconds * 1000).toISOString();
      if (unique.length > 0) await announce({ ids: unique, expiresAt }, true);
    },
    async announceStored() {
      const valid = await db
        .selectFrom('revokedAccess')
        .select(['id', 'expiresAt'])
        .where('expiresAt', '>', new Date())
        .execute();
      if (valid.length > 0) {
        const latest = Math.max(...valid.map((row) => new Date(row.expiresAt).getTime()));
        await announce({ ids: valid.map((row) => row.id), expiresAt: new Date(latest).toISOString() }, false);
      }
    },
  };
}
