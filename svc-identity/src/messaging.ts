import {
  AccessRevoked,
  CameraHealthChanged,
  MailSend,
  PasswordRecoveryRequested,
  type PayloadOf,
  UserChanged,
} from '@lakecams/contracts/messages';
import { publishEvent } from '@lakecams/service-kit';
import type { FastifyInstance } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { Database } from './database.ts';
import { cameraHealthMail } from './camera-health-mail.ts';
import { consumeOnce } from './durable-work.ts';
import type { PasswordRecovery } from './accounts/password-recovery.ts';
import type { Mailer } from './mailer.ts';
import { createUserRepository } from './repositories/user-repository.ts';

/**
 * What svc-identity says and hears on the bus (docs/architecture.md, "The bus").
 *
 * Says, each event in the transaction of the change it announces (the outbox):
 * - `UserChanged`: who a user is now and what changed (registered, confirmed, profile, roles, created);
 * - `AccessRevoked`: access tokens refused before they expire (log-off, password reset);
 * - `MailSend`: a mail to send once its change committed;
 * - `PasswordRecoveryRequested`: somebody asked for a reset code.
 *
 * Hears, once per event id although the bus may deliver an event again:
 * - `MailSend`: the mailer sends it (SMTP or the outbox folder);
 * - `PasswordRecoveryRequested`: a reset code is mailed when the address belongs to a user;
 * - `CameraHealthChanged` (svc-imaging): the operator is mailed that a camera went offline or is back.
 *
 * `AccessRevoked` is followed by every replica of every service, this one's included, through the service
 * kit's auth plugin.
 */

/** A mail as its sender writes it; `queueMail` gives it the id it is delivered once by. */
export type Mail = Omit<PayloadOf<typeof MailSend>, 'eventId'>;

/** Tell other services who the user is now and what changed; nothing when the user is gone. */
export async function announceUser(trx: Transaction<Database>, userId: string, change: string): Promise<void> {
  const user = await createUserRepository(trx).byId(userId);
  if (!user) return;
  const { id, userName, email, emailConfirmed } = user;
  await publishEvent(trx, UserChanged, { id, userName, email, emailConfirmed, change });
}

/** Queue a mail: delivered by the mailer once the transaction commits, with retries, even across restarts. */
export function queueMail(trx: Transaction<Database>, mail: Mail): Promise<void> {
  return publishEvent(trx, MailSend, { ...mail, eventId: randomUUID() });
}

/** Refuse access tokens with these token or session ids everywhere until they expire. */
export function announceAccessRevoked(
  trx: Transaction<Database>,
  revocation: PayloadOf<typeof AccessRevoked>,
): Promise<void> {
  return publishEvent(trx, AccessRevoked, revocation);
}

/** The events routes send that are a transaction of their own, given to them by src/composition.ts. */
export interface IdentityMessaging {
  /** Queue a mail that tells of no change of its own (a contact message), in a transaction of its own. */
  sendMail(mail: Mail): Promise<void>;
  /** Queue a reset-code mail for `email`; costs the caller the same whether or not the address is known. */
  requestPasswordRecovery(email: string): Promise<void>;
}

/** The consumers of svc-identity, and the events that are a transaction of their own. */
export async function startIdentityMessaging(
  app: FastifyInstance,
  {
    db,
    mailer,
    passwordRecovery,
    operatorEmail,
  }: { db: Kysely<Database>; mailer: Mailer; passwordRecovery: PasswordRecovery; operatorEmail: string },
): Promise<IdentityMessaging> {
  const context = { bus: app.bus, log: app.log, db };

  const mails = await consumeOnce(context, MailSend, ({ eventId: _once, ...mail }) => mailer.deliverMail(mail), {
    durable: 'svc-identity-mailer',
    maxDeliver: 10,
  });
  const recoveries = await consumeOnce(
    context,
    PasswordRecoveryRequested,
    ({ email }, trx) => passwordRecovery.mailResetCode(email, trx),
    { durable: 'svc-identity-password-recovery', maxDeliver: 5 },
  );
  const cameraHealth = await consumeOnce(
    context,
    CameraHealthChanged,
    (change, trx) => queueMail(trx, cameraHealthMail(change, operatorEmail)),
    { durable: 'svc-identity-camera-health', maxDeliver: 10 },
  );
  app.addHook('onClose', async () => {
    await mails.unsubscribe();
    await recoveries.unsubscribe();
    await cameraHealth.unsubscribe();
  });

  return {
    sendMail: (mail: Mail) => db.transaction().execute((trx) => queueMail(trx, mail)),
    // Nothing changes yet: the request is an event of its own, and the answer's timing tells nothing of the
    // address (docs/product.md §5.1).
    requestPasswordRecovery: (email: string) =>
      db.transaction().execute((trx) => publishEvent(trx, PasswordRecoveryRequested, { email, eventId: randomUUID() })),
  };
}
