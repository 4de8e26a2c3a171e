import { readdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIdentityService, type IdentityTestService, mailText, solveCaptcha } from '../src/testing.ts';
import { expectTrueText } from './helpers.ts';

interface Received {
  from: string;
  to: string[];
  message: string;
}

describe('mail over SMTP (SMTP_URL)', () => {
  const received: Received[] = [];
  let smtp: SMTPServer;
  let identity: IdentityTestService;

  beforeAll(async () => {
    smtp = new SMTPServer({
      // Plain SMTP on loopback: no TLS upgrade or login to negotiate.
      disabledCommands: ['STARTTLS', 'AUTH'],
      authOptional: true,
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            message: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    identity = await buildIdentityService({ options: { mail: { smtpUrl: `smtp://127.0.0.1:${port}` } } });
  });
  afterAll(async () => {
    await identity?.close();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  });

  it('delivers the registration confirmation to the new user, with a token link of at least 60 characters', async () => {
    const email = 'anna.smtp@example.org';
    const client = identity.client();
    const captcha = await solveCaptcha(identity.url, 'register');
    expectTrueText(
      await client.post(`/api/Register/Register?captcha=${captcha}`, {
        firstname: 'Anna',
        lastname: 'Muster',
        email,
        username: 'anna_smtp',
        password: 'Seeblick!2026',
        passwordConfirm: 'Seeblick!2026',
        phoneNumber: '079 123 45 67',
      }),
    );

    await expect.poll(() => received.filter((mail) => mail.to.includes(email))).toHaveLength(1);
    const mail = received.find((m) => m.to.includes(email)) as Received;
    expect(mail.to).toEqual([email]);
    expect(mail.from).toBe('portal@example.org');
    expect(mail.message).toMatch(new RegExp(`^To: ${email}\\r?$`, 'm'));
    const link = /(http:\/\/localhost:8080\/confirmRegistration\?email=([^&\s]+)&token=([\w-]+))/.exec(
      mailText(mail.message),
    );
    expect(decodeURIComponent(link?.[2] ?? '')).toBe(email);
    const token = link?.[3] ?? '';
    expect(token.length).toBeGreaterThanOrEqual(60);
    // The mailed token is the one the service stored, and nothing went to the outbox folder instead.
    const confirmed = await client.put(
      `/api/RegisterConfirm/Confirm?userEmail=${encodeURIComponent(email)}&token=${token}`,
    );
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(await readdir(identity.outboxDir)).toEqual([]);
  });
});
