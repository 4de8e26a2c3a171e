import { publishEvent } from '@lakecams/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely, Transaction } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { Database } from '../../database.ts';
import { consumeOnce } from '../../durable-work.ts';
import { DEFAULTS } from '../../options.ts';
import { readableCode, sha256 } from '../../secrets.ts';

/** Durable request to mail a reset code to an address, which may or may not belong to a user. */
export const PASSWORD_RECOVERY_SUBJECT = 'identity.password.recovery';

declare module 'fastify' {
  interface FastifyInstance {
    /** Queue a reset-code mail for `email`; costs the caller the same whether or not the address is known. */
    requestPasswordRecovery(email: string): Promise<void>;
  }
}

/**
 * Reset codes: the request only queues an event, so the answer's timing tells nothing about the address
 * (docs/product.md §5.1).
 */
export default fp(
  async (app: FastifyInstance, options: { publicUrl: () => string }) => {
    const db = app.db as Kysely<Database>;

    async function mailResetCode({ email }: { email: string; eventId?: string }, trx: Transaction<Database>) {
      const user = await app.users.byEmail(email);
      if (!user) return;
      const code = readableCode(12);
      const reset = {
        codeHash: sha256(code),
        expiresAt: new Date(Date.now() + DEFAULTS.resetCodeTtlMinutes * 60_000),
        failedAttempts: 0,
      };
      const link = `${options.publicUrl()}/resetPassword?email=${encodeURIComponent(user.email)}&code=${code}`;
      // The code is stored only with its mail queued, so a code nobody was sent never replaces a mailed one.
      await trx
        .insertInto('passwordResets')
        .values({ userId: user.id, ...reset })
        .onConflict((oc) => oc.column('userId').doUpdateSet(reset))
        .execute();
      await app.sendMail(trx, {
        to: user.email,
        subject: 'Seecam Zürichsee: Passwort zurücksetzen',
        text: `Hallo ${user.firstName}\n\nIhr Code zum Zurücksetzen des Passworts (Benutzername ${user.userName}):\n${code}\n\n${link}\n\nDer Code ist ${DEFAULTS.resetCodeTtlMinutes} Minuten gültig. Falls Sie kein neues Passwort angefordert haben, ignorieren Sie diese Mail.\n`,
      });
    }

    // Nothing changes yet: the request is an event of its own, in a transaction of its own.
    app.decorate('requestPasswordRecovery', (email: string) =>
      db.transaction().execute((trx) => publishEvent(trx, PASSWORD_RECOVERY_SUBJECT, { email, eventId: randomUUID() })),
    );
    const subscription = await consumeOnce(app, mailResetCode, {
      durable: 'svc-identity-password-recovery',
      filter: PASSWORD_RECOVERY_SUBJECT,
      maxDeliver: 5,
    });
    app.addHook('onClose', async () => subscription.unsubscribe());
  },
  { name: 'password-recovery', dependencies: ['accounts', 'mailer'] },
);
