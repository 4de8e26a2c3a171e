import { type TypedEventBus, typedBus } from '@lakecams/bus';
import { CameraHealthChanged } from '@lakecams/contracts/messages';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIdentityService, type IdentityTestService, mailsContaining } from '../src/testing.ts';

describe('svc-identity mails the operator when a camera goes offline and when it is back', () => {
  let identity: IdentityTestService;
  let bus: TypedEventBus;

  beforeAll(async () => {
    identity = await buildIdentityService();
    bus = typedBus(identity.bus);
  });
  afterAll(async () => {
    await identity?.close();
  });

  it('writes one German mail per event to OPERATOR_EMAIL, in Zurich time', async () => {
    const offline = {
      webcamId: 7,
      camera: 'Rapperswil',
      state: 'offline' as const,
      since: '2026-11-27T11:05:00.000Z',
      reason: 'silent' as const,
      eventId: randomUUID(),
    };
    await bus.publishEvent(CameraHealthChanged, offline);
    await bus.publishEvent(CameraHealthChanged, offline);
    await bus.publishEvent(CameraHealthChanged, {
      ...offline,
      state: 'back',
      since: '2026-11-27T12:40:00.000Z',
      reason: null,
      eventId: randomUUID(),
    });
    const [back] = await mailsContaining(identity.outboxDir, 'Kamera Rapperswil liefert wieder Bilder');
    expect(back).toMatch(/^To: operator@example\.org$/m);
    const offlineMails = await mailsContaining(
      identity.outboxDir,
      'Kamera Rapperswil ist offline seit 27.11.2026, 12:05 Uhr (keine Lieferung)',
      2,
      0,
    );
    expect(offlineMails).toHaveLength(1);
    expect(offlineMails[0]).toMatch(/^To: operator@example\.org$/m);
  });
});
