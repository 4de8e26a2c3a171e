import { type TypedEventBus, typedBus } from '@lakecams/bus';
import { MailSend, PasswordRecoveryRequested } from '@lakecams/contracts/messages';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildIdentityService, type IdentityTestService, mailsContaining, mailsTo } from '../src/testing.ts';

/** The bus delivers at least once: a relay or consumer that stops at the wrong moment hands an event over again. */
describe('svc-identity acts once on an event delivered twice', () => {
  let identity: IdentityTestService;
  /** The durable publish, as svc-identity's outbox relay does it: here the same event twice. */
  let bus: TypedEventBus;

  beforeAll(async () => {
    identity = await buildIdentityService();
    bus = typedBus(identity.bus);
  });
  afterAll(async () => {
    await identity?.close();
  });

  it('sends a mail once', async () => {
    const mail = { eventId: randomUUID(), to: 'zweimal@example.org', subject: 'Test', text: 'Marke doppelt' };
    await bus.publishEvent(MailSend, mail);
    await bus.publishEvent(MailSend, mail);
    const later = { eventId: randomUUID(), to: 'zweimal@example.org', subject: 'Test', text: 'Marke danach' };
    await bus.publishEvent(MailSend, later);
    // Mails go out in order: once the later one is there, a second copy would be too.
    expect(await mailsContaining(identity.outboxDir, 'Marke danach')).toHaveLength(1);
    expect(await mailsContaining(identity.outboxDir, 'Marke doppelt', 2, 0)).toHaveLength(1);
  });

  it('mails one reset code for a recovery request', async () => {
    const other = await identity.app.users.insert({
      userName: 'otto_einmal',
      email: 'otto.einmal@example.org',
      firstName: 'Otto',
      lastName: 'Einmal',
      phoneNumber: '079 000 00 00',
      passwordHash: 'unused',
      emailConfirmed: true,
    });
    const request = { eventId: randomUUID(), email: ADMIN.email };
    await bus.publishEvent(PasswordRecoveryRequested, request);
    await bus.publishEvent(PasswordRecoveryRequested, request);
    await bus.publishEvent(PasswordRecoveryRequested, { eventId: randomUUID(), email: other.email });
    // Requests are handled in order and their mails leave in order: the later one's mail comes last.
    expect(await mailsTo(identity.outboxDir, other.email)).toHaveLength(1);
    expect(await mailsTo(identity.outboxDir, ADMIN.email, 2, 0)).toHaveLength(1);
  });
});
