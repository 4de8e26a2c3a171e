import type { AccessRevoked, PayloadOf } from '@lakecams/contracts/messages';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../database.ts';
import { announceAccessRevoked } from '../../messaging.ts';
import { DEFAULTS, type IdentityOptions } from '../../options.ts';

type AccessRevocation = PayloadOf<typeof AccessRevoked>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Log-off: refuse access tokens with these token or session ids everywhere until they have expired. */
    revokeAccessTokens(ids: string[]): Promise<void>;
  }
}

/**
 * Revocations are stored here and announced on the bus, which every service's replicas follow. A start
 * announces the still valid ones again: the in-process bus of the embedded portal forgets them on a restart.
 */
export default fp(
  async (app: FastifyInstance, options: Pick<IdentityOptions, 'accessTokenTtlSeconds'> & { db: Kysely<Database> }) => {
    const { db } = options;
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
      app.revokeAccess(revocation);
    }

    app.decorate('revokeAccessTokens', async (ids: string[]) => {
      const unique = [...new Set(ids)];
      // Every token of these ids was signed before now, so none outlives one token lifetime from now.
      const expiresAt = new Date(Date.now() + ttlSeconds * 1000).toISOString();
      if (unique.length > 0) await announce({ ids: unique, expiresAt }, true);
    });

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
  { name: 'access-revocation' },
);
