import { SUBJECTS } from '@lakecams/contracts';
import { publishEvent } from '@lakecams/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Transaction } from 'kysely';
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { consumeOnce } from '../../durable-work.ts';
import type { IdentityOptions } from '../../options.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Queue a mail in the transaction of the change it tells of (or a transaction of its own); it is delivered
     * by the mailer once that commits, with retries, even across restarts.
     */
    sendMail<DB>(trx: Transaction<DB>, mail: Mail): Promise<void>;
  }
}

/** Mails travel as durable `mail.send` events; SMTP when configured, otherwise .eml files in the outbox folder. */
export default fp(
  async (app: FastifyInstance, options: IdentityOptions['mail']) => {
    const outbox = !options.smtpUrl;
    const transport = options.smtpUrl
      ? nodemailer.createTransport(options.smtpUrl)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    if (outbox) await mkdir(options.outboxDir, { recursive: true });

    async function deliver(mail: Mail): Promise<void> {
      const info = await transport.sendMail({ from: options.from, ...mail });
      if (!outbox) return app.log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      const file = join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
      await writeFile(file, (info as unknown as { message: Buffer }).message);
      app.log.info({ to: mail.to, subject: mail.subject, file }, 'mail written to the outbox');
    }

    app.decorate('sendMail', <DB>(trx: Transaction<DB>, mail: Mail) =>
      publishEvent(trx, SUBJECTS.mailSend, { ...mail, eventId: randomUUID() }),
    );
    const subscription = await consumeOnce<Mail & { eventId?: string }>(
      app,
      ({ eventId: _once, ...mail }) => deliver(mail),
      {
        durable: 'svc-identity-mailer',
        filter: SUBJECTS.mailSend,
        maxDeliver: 10,
      },
    );
    app.addHook('onClose', async () => {
      await subscription.unsubscribe();
      transport.close();
    });
  },
  { name: 'mailer' },
);
