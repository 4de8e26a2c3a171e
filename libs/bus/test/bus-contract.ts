import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventDefinition, NoticeDefinition, RequestDefinition } from '@lakecams/contracts/messages';
import { Type } from 'typebox';
import type { Bus, BusLogger, DurableMessage } from '../src/index.ts';
import { BusRequestError, currentRequestId, REQUEST_ID_HEADER, typedBus, withRequestId } from '../src/index.ts';

export const ACK_WAIT_MS = 1_000;

export const silentLogger: BusLogger = { info() {}, warn() {}, error() {} };

export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(10);
  }
}

/** For "nothing else arrives" checks only; positive checks poll with waitUntil. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface ContractOptions {
  /**
   * Every subject used starts with `${prefix}.`; the events stream must capture `${prefix}.>`
   * and nothing under `${prefix}_outside`.
   */
  prefix: string;
}

/**
 * The behaviour every Bus implementation shares. `makeBus` opens a new bus (on NATS: a new connection
 * to the same server); buses opened in a test are closed after it.
 */
export function describeBusContract(name: string, makeBus: () => Promise<Bus>, options: ContractOptions): void {
  describe(`Bus contract: ${name}`, () => {
    const opened: Bus[] = [];
    let tests = 0;
    let space = '';
    let durables = 0;

    const open = async () => {
      const bus = await makeBus();
      opened.push(bus);
      return bus;
    };
    const subject = (rest: string) => `${space}.${rest}`;
    const durable = () => `contract_${++durables}`;

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((bus) => bus.close()));
    });

    // Each test gets its own subject space so late messages of one cannot reach another.
    const test = (title: string, body: () => Promise<void>) =>
      it(title, async () => {
        space = `${options.prefix}.t${++tests}`;
        await body();
      });

    describe('typed over the catalogue, with the request id in headers', () => {
      const Note = Type.Object({ name: Type.String() });
      const event = (rest: string) =>
        ({ kind: 'event', subject: subject(rest), payload: Note, summary: '' }) as const satisfies EventDefinition;
      const notice = (rest: string) =>
        ({ kind: 'notice', subject: subject(rest), payload: Note, summary: '' }) as const satisfies NoticeDefinition;

      test('carries the request id of the sender to notices, events and requests', async () => {
        const typed = typedBus(await open(), silentLogger);
        const Added = event('note.added');
        const Live = notice('note.live');
        const Ask = {
          kind: 'request',
          subject: subject('note.ask'),
          payload: Note,
          reply: Type.String(),
          summary: '',
        } as const satisfies RequestDefinition;
        const seen: (string | undefined)[] = [];
        await typed.subscribe(Live, () => void seen.push(currentRequestId()));
        await typed.consume(
          Added,
          (message) => {
            seen.push(message.headers?.[REQUEST_ID_HEADER]);
            message.ack();
          },
          { durable: durable() },
        );
        await typed.respond(Ask, ({ name }) => `${name} for ${currentRequestId()}`);
        const answer = await withRequestId('req-7', async () => {
          await typed.publish(Live, { name: 'live' });
          await typed.publishEvent(Added, { name: 'stored' });
          return typed.request(Ask, { name: 'look-up' });
        });
        expect(answer).toBe('look-up for req-7');
        await waitUntil(() => seen.length === 2, 'the notice and the event arrived');
        expect(seen).toEqual(['req-7', 'req-7']);
      });

      test('hands handlers only payloads that fit, and gives up on an event that does not', async () => {
        const bus = await open();
        const typed = typedBus(bus, silentLogger);
        const Added = event('note.added');
        const received: string[] = [];
        const name = durable();
        await typed.consume(
          Added,
          (message) => {
            received.push(message.data.name);
            message.ack();
          },
          { durable: name },
        );
        await bus.publishEvent(Added.subject, { name: 42 });
        await typed.publishEvent(Added, { name: 'fits' });
        await waitUntil(() => received.length === 1, 'the fitting event arrived');
        expect(received).toEqual(['fits']);
        await vi.waitFor(async () => expect(await bus.pendingEvents(name)).toBe(0));
      });

      test('refuses an answer out of its schema', async () => {
        const bus = await open();
        const typed = typedBus(bus, silentLogger);
        const Ask = {
          kind: 'request',
          subject: subject('note.count'),
          payload: Note,
          reply: Type.Integer(),
          summary: '',
        } as const satisfies RequestDefinition;
        await bus.respond(Ask.subject, () => 'many');
        await expect(typed.request(Ask, { name: 'x' })).rejects.toBeInstanceOf(BusRequestError);
      });
    });

    describe('publish / subscribe', () => {
      test('delivers JSON payloads unchanged, with the subject', async () => {
        const bus = await open();
        const received: { subject: string; data: unknown }[] = [];
        await bus.subscribe(subject('camera.updated'), (message) => void received.push(message));
        const payloads = [
          { id: 'cam-1', name: 'Rapperswil Hafen', tags: ['lake', 'harbour'], zoom: 1.5, live: true, note: null },
          'text',
          42,
          null,
        ];
        for (const payload of payloads) await bus.publish(subject('camera.updated'), payload);

        await waitUntil(() => received.length === payloads.length, 'all payloads arrived');
        expect(received).toEqual(payloads.map((data) => ({ subject: subject('camera.updated'), data })));
      });

      test('matches `*` one token and `>` one or more tokens', async () => {
        const bus = await open();
        const star: string[] = [];
        const tail: string[] = [];
        await bus.subscribe(subject('a.*'), (message) => void star.push(message.subject));
        await bus.subscribe(subject('a.>'), (message) => void tail.push(message.subject));
        for (const rest of ['a.b', 'a.b.c', 'b.c', 'a']) await bus.publish(subject(rest), rest);

        await waitUntil(() => star.length === 1 && tail.length === 2, 'wildcard subscribers got their messages');
        await sleep(100);
        expect(star).toEqual([subject('a.b')]);
        expect(tail.sort()).toEqual([subject('a.b'), subject('a.b.c')]);
      });

      test('gives each message to one member of a queue group and to every plain subscriber', async () => {
        const bus = await open();
        const members: number[][] = [[], []];
        const plain: number[][] = [[], []];
        for (const list of members) {
          await bus.subscribe<number>(subject('job'), (message) => void list.push(message.data), { queue: 'workers' });
        }
        for (const list of plain)
          await bus.subscribe<number>(subject('job'), (message) => void list.push(message.data));
        const count = 20;
        for (let n = 0; n < count; n++) await bus.publish(subject('job'), n);

        const all = Array.from({ length: count }, (_, n) => n);
        await waitUntil(
          () => plain.every((list) => list.length === count) && members.flat().length === count,
          'every message was handed out',
        );
        await sleep(100);
        expect(members.flat().sort((a, b) => a - b)).toEqual(all);
        expect(members.every((list) => list.length > 0)).toBe(true);
        for (const list of plain) expect(list).toEqual(all);
      });

      test('stops delivering after unsubscribe', async () => {
        const bus = await open();
        const received: number[] = [];
        const subscription = await bus.subscribe<number>(
          subject('tick'),
          (message) => void received.push(message.data),
        );
        await bus.publish(subject('tick'), 1);
        await waitUntil(() => received.length === 1, 'first message arrived');
        await subscription.unsubscribe();
        await bus.publish(subject('tick'), 2);

        await sleep(200);
        expect(received).toEqual([1]);
      });

      test('keeps delivering after a handler throws', async () => {
        const bus = await open();
        const received: number[] = [];
        await bus.subscribe<number>(subject('fragile'), (message) => {
          received.push(message.data);
          if (message.data === 1) throw new Error('handler failed');
        });
        await bus.publish(subject('fragile'), 1);
        await bus.publish(subject('fragile'), 2);

        await waitUntil(() => received.length === 2, 'the second message arrived');
        expect(received).toEqual([1, 2]);
      });
    });

    describe('publishEvent / consume', () => {
      test('delivers persisted events once when they are acked', async () => {
        const bus = await open();
        const received: DurableMessage<number>[] = [];
        await bus.consume<number>(
          (message) => {
            received.push(message);
            message.ack();
          },
          { durable: durable(), filter: subject('events.>'), ackWaitMs: ACK_WAIT_MS },
        );
        for (const n of [1, 2, 3]) await bus.publishEvent(subject(`events.camera${n}`), n);

        await waitUntil(() => received.length === 3, 'three events arrived');
        await sleep(ACK_WAIT_MS + 400);
        expect(received.map((message) => [message.subject, message.data, message.deliveryCount])).toEqual([
          [subject('events.camera1'), 1, 1],
          [subject('events.camera2'), 2, 1],
          [subject('events.camera3'), 3, 1],
        ]);
      });

      test('delivers events published before the consumer started, and only those its filter matches', async () => {
        const bus = await open();
        await bus.publishEvent(subject('events.created'), 1);
        await bus.publishEvent(subject('other.created'), 2);
        await bus.publishEvent(subject('events.deleted'), 3);
        const received: number[] = [];
        await bus.consume<number>(
          (message) => {
            received.push(message.data);
            message.ack();
          },
          { durable: durable(), filter: subject('events.*'), ackWaitMs: ACK_WAIT_MS },
        );

        await waitUntil(() => received.length === 2, 'earlier events arrived');
        await sleep(100);
        expect(received).toEqual([1, 3]);
      });

      test('counts the events a durable has not acknowledged yet, delivered or not', async () => {
        const bus = await open();
        const name = durable();
        const { promise: released, resolve: release } = Promise.withResolvers<void>();
        const settled: number[] = [];
        await bus.consume<number>(
          async (message) => {
            if (message.data === 1) await released;
            if (message.data === 3) message.term();
            else message.ack();
            settled.push(message.data);
          },
          { durable: name, filter: subject('events.>') },
        );
        for (const n of [1, 2, 3]) await bus.publishEvent(subject(`events.camera${n}`), n);
        await bus.publishEvent(subject('other.camera4'), 4);

        await vi.waitUntil(async () => (await bus.pendingEvents(name)) === 3, { timeout: 5_000, interval: 20 });
        expect(settled).toEqual([]);
        release();
        await waitUntil(() => settled.length === 3, 'every event was settled');
        await vi.waitUntil(async () => (await bus.pendingEvents(name)) === 0, { timeout: 5_000, interval: 20 });
        await expect(bus.pendingEvents(durable())).rejects.toThrow();
      });

      test('redelivers a nak after its delay, counting deliveries', async () => {
        const bus = await open();
        const received: DurableMessage<number>[] = [];
        const times: number[] = [];
        await bus.consume<number>(
          (message) => {
            received.push(message);
            times.push(Date.now());
            if (message.deliveryCount === 1) message.nak(300);
            else message.ack();
          },
          { durable: durable(), filter: subject('events.>'), ackWaitMs: ACK_WAIT_MS },
        );
        await bus.publishEvent(subject('events.retry'), 7);

        await waitUntil(() => received.length === 2, 'the event came back');
        expect(received.map((message) => [message.data, message.deliveryCount])).toEqual([
          [7, 1],
          [7, 2],
        ]);
        expect((times[1] as number) - (times[0] as number)).toBeGreaterThanOrEqual(250);
        expect((times[1] as number) - (times[0] as number)).toBeLessThan(ACK_WAIT_MS);
      });

      test('redelivers an event that was not settled within ackWait', async () => {
        const bus = await open();
        const received: DurableMessage<number>[] = [];
        const started = Date.now();
        let redeliveredAfter = 0;
        await bus.consume<number>(
          (message) => {
            received.push(message);
            if (message.deliveryCount > 1) {
              redeliveredAfter = Date.now() - started;
              message.ack();
            }
          },
          { durable: durable(), filter: subject('events.>'), ackWaitMs: ACK_WAIT_MS },
        );
        await bus.publishEvent(subject('events.slow'), 1);

        await waitUntil(() => received.length === 2, 'the unsettled event came back', ACK_WAIT_MS * 5);
        expect(received.map((message) => message.deliveryCount)).toEqual([1, 2]);
        expect(redeliveredAfter).toBeGreaterThanOrEqual(ACK_WAIT_MS * 0.8);
      });

      test('never redelivers a termed event, and carries on with the next', async () => {
        const bus = await open();
        const received: DurableMessage<number>[] = [];
        await bus.consume<number>(
          (message) => {
            received.push(message);
            if (message.data === 1) message.term();
            else message.ack();
          },
          { durable: durable(), filter: subject('events.>'), ackWaitMs: ACK_WAIT_MS },
        );
        await bus.publishEvent(subject('events.poison'), 1);
        await bus.publishEvent(subject('events.fine'), 2);

        await waitUntil(() => received.length === 2, 'both events arrived');
        await sleep(ACK_WAIT_MS + 400);
        expect(received.map((message) => [message.data, message.deliveryCount])).toEqual([
          [1, 1],
          [2, 1],
        ]);
      });

      test('gives up after maxDeliver deliveries', async () => {
        const bus = await open();
        const name = durable();
        const received: DurableMessage<number>[] = [];
        await bus.consume<number>(
          (message) => {
            received.push(message);
            message.nak();
          },
          { durable: name, filter: subject('events.>'), ackWaitMs: ACK_WAIT_MS, maxDeliver: 3 },
        );
        await bus.publishEvent(subject('events.hopeless'), 1);

        await waitUntil(() => received.length === 3, 'three deliveries');
        await sleep(400);
        expect(received.map((message) => message.deliveryCount)).toEqual([1, 2, 3]);
        // Given up on, it no longer waits for anyone.
        await vi.waitUntil(async () => (await bus.pendingEvents(name)) === 0, { timeout: 5_000, interval: 20 });
      });

      test('naks an event whose handler throws, so it comes back', async () => {
        const bus = await open();
        const received: DurableMessage<number>[] = [];
        await bus.consume<number>(
          (message) => {
            received.push(message);
            if (message.deliveryCount === 1) throw new Error('database unavailable');
            message.ack();
          },
          { durable: durable(), filter: subject('events.>'), ackWaitMs: ACK_WAIT_MS * 10 },
        );
        await bus.publishEvent(subject('events.flaky'), 1);

        await waitUntil(() => received.length === 2, 'the event came back before its ack wait');
        expect(received.map((message) => message.deliveryCount)).toEqual([1, 2]);
      });

      test('refuses an event outside the stream subjects', async () => {
        const bus = await open();

        await expect(bus.publishEvent(`${options.prefix}_outside.camera.created`, 1)).rejects.toThrow();
      });

      test('shares the events of one durable name between its consumers', async () => {
        const bus = await open();
        const name = durable();
        const handled: number[][] = [[], []];
        for (const list of handled) {
          await bus.consume<number>(
            async (message) => {
              list.push(message.data);
              await sleep(5);
              message.ack();
            },
            { durable: name, filter: subject('events.>'), ackWaitMs: ACK_WAIT_MS },
          );
        }
        const count = 40;
        for (let n = 0; n < count; n++) await bus.publishEvent(subject('events.work'), n);

        await waitUntil(() => handled.flat().length === count, 'all events were handled');
        await sleep(ACK_WAIT_MS + 400);
        expect(handled.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, n) => n));
        expect(handled.every((list) => list.length > 0)).toBe(true);
      });

      test('resumes a durable name where the previous consumer left off', async () => {
        const bus = await open();
        const name = durable();
        const first: number[] = [];
        const before = await bus.consume<number>(
          (message) => {
            first.push(message.data);
            message.ack();
          },
          { durable: name, filter: subject('events.>'), ackWaitMs: ACK_WAIT_MS },
        );
        await bus.publishEvent(subject('events.a'), 1);
        await waitUntil(() => first.length === 1, 'the first event arrived');
        await before.unsubscribe();
        await bus.publishEvent(subject('events.b'), 2);
        const second: number[] = [];
        await bus.consume<number>(
          (message) => {
            second.push(message.data);
            message.ack();
          },
          { durable: name, filter: subject('events.>'), ackWaitMs: ACK_WAIT_MS },
        );

        await waitUntil(() => second.length === 1, 'the second event arrived');
        await sleep(200);
        expect(first).toEqual([1]);
        expect(second).toEqual([2]);
      });
    });

    describe('follow', () => {
      test('gives every follower every stored event, oldest first, then each new one', async () => {
        const bus = await open();
        await bus.publishEvent(subject('revoked.a'), 1);
        await bus.publishEvent(subject('other.a'), 'not followed');
        await bus.publishEvent(subject('revoked.b'), 2);
        const first: unknown[] = [];
        const second: unknown[] = [];
        await bus.follow(subject('revoked.*'), (message) => void first.push([message.subject, message.data]));
        // Resolved only once the stored events were handled: a replica knows them before it serves.
        expect(first).toEqual([
          [subject('revoked.a'), 1],
          [subject('revoked.b'), 2],
        ]);
        const later = await bus.follow(subject('revoked.*'), (message) => void second.push(message.data));
        expect(second).toEqual([1, 2]);

        await bus.publishEvent(subject('revoked.c'), 3);
        await waitUntil(() => first.length === 3 && second.length === 3, 'both followers read the new event');
        await later.unsubscribe();
        await bus.publishEvent(subject('revoked.d'), 4);
        await waitUntil(() => first.length === 4, 'the remaining follower read the next event');
        await sleep(200);
        expect(second).toEqual([1, 2, 3]);
      });

      test('resolves at once when nothing is stored', async () => {
        const bus = await open();
        const received: unknown[] = [];
        await bus.follow(subject('nothing.>'), (message) => void received.push(message.data));
        expect(received).toEqual([]);
        await bus.publishEvent(subject('nothing.yet'), 'now');
        await waitUntil(() => received.length === 1, 'the new event arrived');
      });
    });

    describe('request / respond', () => {
      test('answers a request', async () => {
        const bus = await open();
        await bus.respond<{ a: number; b: number }, { sum: number; subject: string }>(subject('sum'), (message) => ({
          sum: message.data.a + message.data.b,
          subject: message.subject,
        }));

        await expect(bus.request(subject('sum'), { a: 2, b: 3 })).resolves.toEqual({ sum: 5, subject: subject('sum') });
      });

      test('lets one member of a responder queue group answer each request', async () => {
        const bus = await open();
        const calls = [0, 0];
        for (const index of [0, 1]) {
          await bus.respond(
            subject('who'),
            async () => {
              calls[index] = (calls[index] as number) + 1;
              return index;
            },
            { queue: 'responders' },
          );
        }
        const answers = [];
        for (let n = 0; n < 20; n++) answers.push(await bus.request<number>(subject('who'), n));

        await sleep(100);
        expect(calls.reduce((sum, count) => sum + count, 0)).toBe(20);
        expect(answers.filter((answer) => answer === 0)).toHaveLength(calls[0] as number);
        expect(calls.every((count) => count > 0)).toBe(true);
      });

      test('fails with code timeout when nobody answers in time', async () => {
        const bus = await open();
        await bus.respond(subject('slow'), async () => {
          await sleep(1_000);
          return 'too late';
        });

        const error = await bus.request(subject('slow'), null, { timeoutMs: 200 }).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(BusRequestError);
        expect((error as BusRequestError).code).toBe('timeout');
      });

      test('fails with code no-responders when nobody listens', async () => {
        const bus = await open();

        const error = await bus
          .request(subject('nobody'), null, { timeoutMs: 1_000 })
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(BusRequestError);
        expect((error as BusRequestError).code).toBe('no-responders');
      });

      test('passes a responder error back as remote-error', async () => {
        const bus = await open();
        await bus.respond(subject('camera.get'), () => {
          throw new Error('camera not found');
        });

        const error = await bus.request(subject('camera.get'), { id: 'x' }).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(BusRequestError);
        expect(error).toMatchObject({ code: 'remote-error', message: 'camera not found' });
      });
    });

    describe('core traffic and events', () => {
      test('stay apart even on the same subjects', async () => {
        const bus = await open();
        const plain: unknown[] = [];
        const events: unknown[] = [];
        await bus.subscribe(subject('events.>'), (message) => void plain.push(message.data));
        await bus.consume(
          (message) => {
            events.push(message.data);
            message.ack();
          },
          { durable: durable(), filter: subject('events.>'), ackWaitMs: ACK_WAIT_MS },
        );
        await bus.respond(subject('events.lookup'), () => 'from responder');

        await expect(bus.request(subject('events.lookup'), null)).resolves.toBe('from responder');
        await bus.publish(subject('events.plain'), 'plain');
        await bus.publishEvent(subject('events.stored'), 'event');
        await waitUntil(() => events.length === 1 && plain.length === 2, 'both kinds arrived');
        await sleep(200);
        expect(events).toEqual(['event']);
        expect(plain).toEqual([null, 'plain']);
      });
    });

    describe('close', () => {
      test('stops every delivery, reports not connected, and tolerates a late unsubscribe or close', async () => {
        const bus = await open();
        const other = await open();
        const received: unknown[] = [];
        const subscriptions = [
          await bus.subscribe(subject('closing.plain'), (message) => void received.push(message.data)),
          await bus.consume((message) => void received.push(message.data), {
            durable: durable(),
            filter: subject('closing.events'),
            ackWaitMs: ACK_WAIT_MS,
          }),
          await bus.respond(subject('closing.ask'), () => 'answer'),
        ];
        expect(bus.isConnected()).toBe(true);

        await bus.close();
        expect(bus.isConnected()).toBe(false);
        await expect(bus.publish(subject('closing.plain'), 'late')).rejects.toThrow();
        await other.publish(subject('closing.plain'), 'late');
        await other.publishEvent(subject('closing.events'), 'late');
        const error = await other
          .request(subject('closing.ask'), null, { timeoutMs: 300 })
          .catch((caught: unknown) => caught);

        await sleep(ACK_WAIT_MS + 400);
        expect(received).toEqual([]);
        expect(error).toBeInstanceOf(BusRequestError);
        for (const subscription of subscriptions) await subscription.unsubscribe();
        await bus.close();
      });
    });
  });
}
