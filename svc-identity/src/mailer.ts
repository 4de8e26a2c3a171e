import type { FastifyBaseLogger } from 'fastify';
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Mail } from './messaging.ts';
import type { IdentityOptions } from './options.ts';

export interface Mailer {
  /** Send a mail now; mails are queued with `queueMail` and sent by the mail consumer (src/messaging.ts). */
  deliverMail(mail: Mail): Promise<void>;
  close(): void;
}

/** Sends mails: SMTP when configured, otherwise .eml files in the outbox folder. */
export async function createMailer(options: IdentityOptions['mail'], log: FastifyBaseLogger): Promise<Mailer> {
  const outbox = !options.smtpUrl;
  const transport = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  if (outbox) await mkdir(options.outboxDir, { recursive: true });

  return {
    async deliverMail(mail: Mail): Promise<void> {
      const info = await transport.sendMail({ from: options.from, ...mail });
      if (!outbox) return log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      const file = join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
      await writeFile(file, (info as unknown as { message: Buffer }).message);
      log.info({ to: mail.to, subject: mail.subject, file }, 'mail written to the outbox');
    },
    close: () => transport.close(),
  };
}
