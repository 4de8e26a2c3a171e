import type { Transaction } from 'kysely';
import type { Database } from '../database.ts';
import { queueMail } from '../messaging.ts';
import { DEFAULTS } from '../options.ts';
import { readableCode, sha256 } from '../secrets.ts';
import { createPasswordResetRepository } from '../repositories/password-reset-repository.ts';
import type { UserRepository } from '../repositories/user-repository.ts';

export interface PasswordRecovery {
  /**
   * Mail a fresh reset code to `email` in `trx`, when the address belongs to a user (a recovery request,
   * `requestPasswordRecovery`, heard later: src/messaging.ts).
   */
  mailResetCode(email: string, trx: Transaction<Database>): Promise<void>;
}

/**
 * Reset codes: the request only queues an event, so the answer's timing tells nothing about the address
 * (docs/product.md §5.1); the code is made and mailed when the event is handled.
 */
export function createPasswordRecovery(
  users: Pick<UserRepository, 'byEmail'>,
  options: { publicUrl: () => string },
): PasswordRecovery {
  return {
    async mailResetCode(email: string, trx: Transaction<Database>) {
      const user = await users.byEmail(email);
      if (!user) return;
      const code = readableCode(12);
      const link = `${options.publicUrl()}/resetPassword?email=${encodeURIComponent(user.email)}&code=${code}`;
      // The code is stored only with its mail queued, so a code nobody was sent never replaces a mailed one.
      await createPasswordResetRepository(trx).store(
        user.id,
        sha256(code),
        new Date(Date.now() + DEFAULTS.resetCodeTtlMinutes * 60_000),
      );
      await queueMail(trx, {
        to: user.email,
        subject: 'Seecam Zürichsee: Passwort zurücksetzen',
        text: `Hallo ${user.firstName}\n\nIhr Code zum Zurücksetzen des Passworts (Benutzername ${user.userName}):\n${code}\n\n${link}\n\nDer Code ist ${DEFAULTS.resetCodeTtlMinutes} Minuten gültig. Falls Sie kein neues Passwort angefordert haben, ignorieren Sie diese Mail.\n`,
      });
    },
  };
}
