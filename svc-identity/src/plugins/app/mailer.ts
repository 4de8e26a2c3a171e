import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Mail } from '../../messaging.ts';
import type { IdentityOptions } from '../../options.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Send a mail now; mails are queued with `queueMail` and sent by the mail consumer (src/messaging.ts). */
    deliverMail(mail: Mail): Promise<void>;
  }
}

/** Sends mails: SMTP when configured, otherwise .eml files in the outbox folder. */
export default fp(
  async (app: FastifyInstance, options: IdentityOptions['mail']) => {
    const outbox = !options.smtpUrl;
    const transport = options.smtpUrl
      ? nodemailer.createTransport(options.smtpUrl)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    if (outbox) await mkdir(options.outboxDir, { recursive: true });

    app.decorate('deliverMail', async (mail: Mail): Promise<void> => {
      const info = await transport.sendMail({ from: options.from, ...mail });
      if (!outbox) return app.log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      const file = join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
      await writeFile(file, (info as unknown as { message: Buffer }).message);
      app.log.info({ to: mail.to, subject: mail.subject, file }, 'mail written to the outbox');
    });
    app.addHook('onClose', async () => transport.close());
  },
  { name: 'mailer' },
);
