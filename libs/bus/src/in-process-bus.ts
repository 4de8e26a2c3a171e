import {
  answer,
  assertEventSubject,
  DEFAULT_ACK_WAIT_MS,
  DEFAULT_MAX_DELIVER,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_STREAM_SUBJECTS,
  encode,
  openReply,
  runDurableHandler,
  runHandler,
  type Settlement,
  subjectMatches,
} from './shared.ts';
import type {
  Bus,
  BusLogger,
  DurableConsumerOptions,
  DurableHandler,
  Handler,
  MessageHeaders,
  RequestOptions,
  Responder,
  SubscribeOptions,
  Subscription,
} from './types.ts';
import { BusRequestError } from './types.ts';

export const DEFAULT_EVENT_LOG_LIMIT = 10_000;

export interface InProcessBusOptions {
  logger?: BusLogger;
  /** How many of the latest events the in-memory stream keeps. */
  eventLogLimit?: number;
  /** Subjects `publishEvent` accepts, as on NATS; default `DEFAULT_STREAM_SUBJECTS`. */
  subjects?: string[];
}

/** A subscription or responder: both share the subject space, as on NATS. */
interface Receiver {
  pattern: string;
  queue: string | undefined;
  receive(subject: string, payload: string, reply?: (envelope: string) => void, headers?: MessageHeaders): void;
}

interface StoredEvent {
  seq: number;
  subject: string;
  payload: string;
  headers: MessageHeaders | undefined;
}

/** One stored event on its way to a durable consumer; `count` is how often it was delivered. */
interface Delivery {
  event: StoredEvent;
  count: number;
}

interface Member {
  handler: DurableHandler<unknown>;
  busy: boolean;
  active: boolean;
}

/** The state behind one durable name, shared by every consumer that uses it. */
interface Durable {
  filter: string;
  ackWaitMs: number;
  maxDeliver: number;
  nextSeq: number;
  due: Delivery[];
  members: Member[];
  turn: number;
  /** Taken from the log and not yet acked, terminated or given up on (in flight or waiting to be redelivered). */
  unsettled: number;
}

/** One message at a time, in arrival order, like a NATS subscription iterator. */
function inOrder<T>(handler: Handler<T>, logger: BusLogger) {
  let chain = Promise.resolve();
  let active = true;
  return {
    receive(subject: string, payload: string, _reply?: unknown, headers?: MessageHeaders): void {
      chain = chain.then(async () => {
        const data = JSON.parse(payload) as T;
        if (active) await runHandler(handler, headers ? { subject, data, headers } : { subject, data }, logger);
      });
    },
    idle: () => chain,
    stop(): void {
      active = false;
    },
  };
}

export function createInProcessBus(options: InProcessBusOptions = {}): Bus {
  const logger = options.logger ?? console;
  const eventLogLimit = options.eventLogLimit ?? DEFAULT_EVENT_LOG_LIMIT;
  const streamSubjects = options.subjects ?? DEFAULT_STREAM_SUBJECTS;

  const receivers = new Set<Receiver>();
  const queueTurns = new Map<string, number>();
  const events: StoredEvent[] = [];
  let lastSeq = 0;
  const durables = new Map<string, Durable>();
  const followers = new Set<Receiver>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const ensureOpen = () => {
    if (closed) throw new Error('bus is closed');
  };

  const later = (delayMs: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, delayMs);
    timers.add(timer);
    return timer;
  };

  const listen = (pattern: string, queue: string | undefined, receive: Receiver['receive']): Subscription => {
    const receiver: Receiver = { pattern, queue, receive };
    receivers.add(receiver);
    return { unsubscribe: async () => void receivers.delete(receiver) };
  };

  /** Every plain receiver gets the message; each queue group hands it to one member in turn. */
  const route = (subject: string): Receiver[] => {
    const targets: Receiver[] = [];
    const groups = new Map<string, Receiver[]>();
    for (const receiver of receivers) {
      if (!subjectMatches(receiver.pattern, subject)) continue;
      if (receiver.queue === undefined) {
        targets.push(receiver);
        continue;
      }
      const key = `${receiver.pattern} ${receiver.queue}`;
      groups.set(key, [...(groups.get(key) ?? []), receiver]);
    }
    for (const [key, members] of groups) {
      const turn = queueTurns.get(key) ?? 0;
      queueTurns.set(key, turn + 1);
      targets.push(members[turn % members.length] as Receiver);
    }
    return targets;
  };

  const nextFromLog = (durable: Durable): Delivery | undefined => {
    const firstSeq = events[0]?.seq ?? lastSeq + 1;
    for (let seq = Math.max(durable.nextSeq, firstSeq); seq <= lastSeq; seq++) {
      const event = events[seq - firstSeq] as StoredEvent;
      if (subjectMatches(durable.filter, event.subject)) {
        durable.nextSeq = seq + 1;
        durable.unsettled++;
        return { event, count: 0 };
      }
    }
    durable.nextSeq = lastSeq + 1;
    return undefined;
  };

  const idleMember = (durable: Durable): Member | undefined => {
    const { members } = durable;
    for (let i = 0; i < members.length; i++) {
      const index = (durable.turn + i) % members.length;
      const member = members[index] as Member;
      if (!member.busy) {
        durable.turn = index + 1;
        return member;
      }
    }
    return undefined;
  };

  const redeliver = (durable: Durable, delivery: Delivery, delayMs: number) => {
    if (durable.maxDeliver > 0 && delivery.count >= durable.maxDeliver) {
      durable.unsettled--;
      return;
    }
    later(delayMs, () => {
      durable.due.push(delivery);
      pump(durable);
    });
  };

  const deliver = (durable: Durable, member: Member, delivery: Delivery) => {
    delivery.count++;
    member.busy = true;
    // Settlements of an attempt that already timed out must not touch the next one.
    let open = true;
    const close = () => {
      const wasOpen = open;
      open = false;
      clearTimeout(ackTimer);
      timers.delete(ackTimer);
      return wasOpen;
    };
    const ackTimer = later(durable.ackWaitMs, () => {
      if (close()) redeliver(durable, delivery, 0);
    });
    const settle = () => {
      if (close()) durable.unsettled--;
    };
    const settlement: Settlement = {
      ack: settle,
      term: settle,
      nak: (delayMs = 0) => {
        if (close()) redeliver(durable, delivery, delayMs);
      },
    };
    const { subject, payload, headers } = delivery.event;
    setImmediate(async () => {
      if (member.active) {
        const message = {
          subject,
          data: JSON.parse(payload),
          deliveryCount: delivery.count,
          ...(headers ? { headers } : {}),
        };
        await runDurableHandler(member.handler, message, settlement, logger);
      }
      member.busy = false;
      pump(durable);
    });
  };

  function pump(durable: Durable): void {
    while (!closed) {
      const member = idleMember(durable);
      if (!member) return;
      const delivery = durable.due.shift() ?? nextFromLog(durable);
      if (!delivery) return;
      deliver(durable, member, delivery);
    }
  }

  return {
    kind: 'in-process',

    async publish(subject, data, publishOptions) {
      ensureOpen();
      const payload = encode(data);
      for (const receiver of route(subject)) receiver.receive(subject, payload, undefined, publishOptions?.headers);
    },

    async subscribe<T>(subject: string, handler: Handler<T>, subscribeOptions?: SubscribeOptions) {
      ensureOpen();
      const serial = inOrder(handler, logger);
      const subscription = listen(subject, subscribeOptions?.queue, serial.receive);
      return {
        unsubscribe: async () => {
          serial.stop();
          await subscription.unsubscribe();
        },
      };
    },

    async publishEvent(subject, data, publishOptions) {
      ensureOpen();
      assertEventSubject(streamSubjects, subject);
      const payload = encode(data);
      const headers = publishOptions?.headers;
      events.push({ seq: ++lastSeq, subject, payload, headers });
      if (events.length > eventLogLimit) events.shift();
      for (const durable of durables.values()) pump(durable);
      for (const follower of followers) {
        if (subjectMatches(follower.pattern, subject)) follower.receive(subject, payload, undefined, headers);
      }
    },

    async consume<T>(handler: DurableHandler<T>, consumerOptions: DurableConsumerOptions) {
      ensureOpen();
      const settings = {
        filter: consumerOptions.filter,
        ackWaitMs: consumerOptions.ackWaitMs ?? DEFAULT_ACK_WAIT_MS,
        maxDeliver: consumerOptions.maxDeliver ?? DEFAULT_MAX_DELIVER,
      };
      let durable = durables.get(consumerOptions.durable);
      if (durable) Object.assign(durable, settings);
      else {
        durable = { ...settings, nextSeq: 1, due: [], members: [], turn: 0, unsettled: 0 };
        durables.set(consumerOptions.durable, durable);
      }
      const member: Member = { handler: handler as DurableHandler<unknown>, busy: false, active: true };
      durable.members.push(member);
      const owner = durable;
      setImmediate(() => pump(owner));
      return {
        unsubscribe: async () => {
          member.active = false;
          owner.members = owner.members.filter((other) => other !== member);
        },
      };
    },

    async follow<T>(subject: string, handler: Handler<T>) {
      ensureOpen();
      // The stored events first, then each new one.
      const serial = inOrder(handler, logger);
      const follower: Receiver = { pattern: subject, queue: undefined, receive: serial.receive };
      for (const event of events) {
        if (subjectMatches(subject, event.subject))
          follower.receive(event.subject, event.payload, undefined, event.headers);
      }
      followers.add(follower);
      await serial.idle();
      return {
        unsubscribe: async () => {
          serial.stop();
          followers.delete(follower);
        },
      };
    },

    async pendingEvents(name) {
      const durable = durables.get(name);
      if (!durable) throw new Error(`no durable consumer ${name}`);
      const firstSeq = events[0]?.seq ?? lastSeq + 1;
      let unread = 0;
      for (let seq = Math.max(durable.nextSeq, firstSeq); seq <= lastSeq; seq++) {
        if (subjectMatches(durable.filter, (events[seq - firstSeq] as StoredEvent).subject)) unread++;
      }
      return unread + durable.unsettled;
    },

    async request<R>(subject: string, data: unknown, requestOptions?: RequestOptions) {
      ensureOpen();
      const timeoutMs = requestOptions?.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
      const targets = route(subject);
      if (targets.length === 0) throw new BusRequestError('no-responders', `no responders for ${subject}`);
      const payload = encode(data);
      return new Promise<R>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new BusRequestError('timeout', `no answer on ${subject} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        // The first answer wins, as with a NATS request.
        let answered = false;
        const reply = (envelope: string) => {
          if (answered) return;
          answered = true;
          clearTimeout(timer);
          try {
            resolve(openReply<R>(envelope));
          } catch (error) {
            reject(error);
          }
        };
        for (const target of targets) target.receive(subject, payload, reply, requestOptions?.headers);
      });
    },

    async respond<T, R>(subject: string, responder: Responder<T, R>, subscribeOptions?: SubscribeOptions) {
      ensureOpen();
      return listen(subject, subscribeOptions?.queue, (actual, payload, reply, headers) => {
        setImmediate(async () => {
          const envelope = await answer(responder, actual, payload, logger, headers);
          if (!closed) reply?.(envelope);
        });
      });
    },

    isConnected() {
      return !closed;
    },

    async close() {
      closed = true;
      receivers.clear();
      followers.clear();
      for (const durable of durables.values()) {
        for (const member of durable.members) member.active = false;
        durable.members = [];
      }
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
