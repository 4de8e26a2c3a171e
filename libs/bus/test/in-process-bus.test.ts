import { describe, expect, it } from 'vitest';
import { createBus, createInProcessBus, subjectMatches } from '../src/index.ts';
import { describeBusContract, silentLogger, waitUntil } from './bus-contract.ts';

describeBusContract('in-process', async () => createInProcessBus({ logger: silentLogger, subjects: ['contract.>'] }), {
  prefix: 'contract',
});

describe('in-process bus', () => {
  it('keeps only the latest events in memory', async () => {
    const bus = createInProcessBus({ logger: silentLogger, eventLogLimit: 3 });
    for (let n = 1; n <= 5; n++) await bus.publishEvent('webcam.camera.updated', n);
    const received: number[] = [];
    await bus.consume<number>(
      (message) => {
        received.push(message.data);
        message.ack();
      },
      { durable: 'late', filter: 'webcam.>' },
    );

    await waitUntil(() => received.length === 3, 'the retained events arrived');
    expect(received).toEqual([3, 4, 5]);
    await bus.close();
  });

  it('delivers asynchronously, never inside publish', async () => {
    const bus = createInProcessBus({ logger: silentLogger });
    const received: unknown[] = [];
    await bus.subscribe('webcam.x', (message) => void received.push(message.data));
    const publishing = bus.publish('webcam.x', 1);
    expect(received).toEqual([]);
    await publishing;
    await waitUntil(() => received.length === 1, 'the message arrived');
    await bus.close();
  });

  it('matches subjects like NATS', () => {
    const matches = subjectMatches;
    expect(matches('a.b', 'a.b')).toBe(true);
    expect(matches('a.*', 'a.b')).toBe(true);
    expect(matches('a.*', 'a.b.c')).toBe(false);
    expect(matches('a.*.c', 'a.b.c')).toBe(true);
    expect(matches('a.>', 'a')).toBe(false);
    expect(matches('a.>', 'a.b.c')).toBe(true);
    expect(matches('>', 'a')).toBe(true);
    expect(matches('a.b', 'a.b.c')).toBe(false);
  });

  it('createBus picks the in-process bus without a NATS URL', async () => {
    const bus = await createBus({ name: 'test', logger: silentLogger });
    expect(bus.kind).toBe('in-process');
    await bus.close();
  });
});
