import type { ConsumerConfig, ConsumerMessages, JetStreamManager, JsMsg } from '@nats-io/jetstream';
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiError,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import type { Msg, NatsConnection } from '@nats-io/transport-node';
import {
  connect,
  headers as natsHeaders,
  type MsgHdrs,
  nanos,
  RequestError,
  TimeoutError,
} from '@nats-io/transport-node';
import {
  answer,
  assertEventSubject,
  DEFAULT_ACK_WAIT_MS,
  DEFAULT_MAX_DELIVER,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_STREAM_SUBJECTS,
  encode,
  errorMessage,
  openReply,
  runDurableHandler,
  runHandler,
  type Settlement,
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
} from './types.ts';
import { BusRequestError } from './types.ts';

export const DEFAULT_STREAM = 'LAKECAMS';
export const DEFAULT_STREAM_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

// Core traffic lives under its own prefix so the events stream never captures it (JetStream would ack requests).
export const CORE_SUBJECT_PREFIX = 'core';
// Small pulls keep buffered messages from outliving their ack wait behind a slow handler.
const PULL_BATCH = 10;
const STREAM_NOT_FOUND = 10059;

export interface NatsBusOptions {
  /** One URL or several, comma-separated. */
  servers: string;
  /** Connection name shown by the server (e.g. the service name). */
  name: string;
  /** Stream that holds the events; default `LAKECAMS`. */
  stream?: string;
  /** Subjects the stream captures; default `DEFAULT_STREAM_SUBJECTS`. */
  subjects?: string[];
  /**
   * Keeps this bus apart from others on the same server (tests, several portals): every subject,
   * the stream and durable names get this prefix on the wire; callers never see it.
   */
  namespace?: string;
  /** Events older than this are discarded; default 7 days. */
  maxAgeMs?: number;
  /** Copies of the events stream in a NATS cluster (1 on a single server, 3 on a cluster of three). */
  streamReplicas?: number;
  logger?: BusLogger;
}

export async function createNatsBus(options: NatsBusOptions): Promise<Bus> {
  const logger = options.logger ?? console;
  const namespace = options.namespace;
  if (namespace !== undefined && !/^[A-Za-z0-9_-]+$/.test(namespace))
    throw new Error(`Invalid bus namespace ${namespace}`);
  const prefix = namespace ? `${namespace}.` : '';
  const stream = namespace ? `${options.stream ?? DEFAULT_STREAM}_${namespace}` : (options.stream ?? DEFAULT_STREAM);
  const subjects = options.subjects ?? DEFAULT_STREAM_SUBJECTS;
  const wireSubjects = subjects.map((subject) => `${prefix}${subject}`);
  const toWire = (subject: string) => `${prefix}${CORE_SUBJECT_PREFIX}.${subject}`;
  const fromWire = (subject: string) => subject.slice(prefix.length + CORE_SUBJECT_PREFIX.length + 1);
  const eventFromWire = (subject: string) => subject.slice(prefix.length);
  const durableName = (durable: string) => (namespace ? `${namespace}_${durable}` : durable);
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_STREAM_MAX_AGE_MS;

  const nc = await connect({
    servers: options.servers.split(',').map((server) => server.trim()),
    name: options.name,
    maxReconnectAttempts: -1,
  });
  let jsm: JetStreamManager;
  try {
    jsm = await jetstreamManager(nc);
    await ensureStream(jsm, stream, wireSubjects, maxAgeMs, options.streamReplicas ?? 1);
  } catch (error) {
    await nc.close();
    throw error;
  }
  const js = jsm.jetstream();

  let connected = true;
  background(logger, 'connection status', () =>
    watchConnection(nc, logger, (up) => {
      connected = up;
    }),
  );

  const consumers = new Set<ConsumerMessages>();
  let closing: Promise<void> | undefined;

  const ensureConsumer = async (config: Partial<ConsumerConfig> & { durable_name: string }) => {
    try {
      await jsm.consumers.add(stream, config);
    } catch (error) {
      // Newer servers refuse to change an existing consumer through "create".
      if (!(error instanceof JetStreamApiError) || error.code === STREAM_NOT_FOUND) throw error;
      const { ack_wait, max_deliver, filter_subject } = config;
      await jsm.consumers.update(stream, config.durable_name, { ack_wait, max_deliver, filter_subject });
    }
  };

  return {
    kind: 'nats',

    async publish(subject, data, publishOptions) {
      nc.publish(toWire(subject), encode(data), wireHeaders(publishOptions?.headers));
    },

    async subscribe<T>(subject: string, handler: Handler<T>, subscribeOptions?: SubscribeOptions) {
      const sub = nc.subscribe(toWire(subject), { queue: subscribeOptions?.queue });
      background(logger, 'subscription', async () => {
        for await (const msg of sub) {
          const data = decode<T>(msg, logger);
          if (data) await runHandler(handler, messageOf(fromWire(msg.subject), data.value, msg), logger);
        }
      });
      await nc.flush();
      return { unsubscribe: async () => sub.unsubscribe() };
    },

    async publishEvent(subject, data, publishOptions) {
      assertEventSubject(subjects, subject);
      await js.publish(`${prefix}${subject}`, encode(data), wireHeaders(publishOptions?.headers));
    },

    async consume<T>(handler: DurableHandler<T>, consumerOptions: DurableConsumerOptions) {
      const config = consumerConfig({
        ...consumerOptions,
        durable: durableName(consumerOptions.durable),
        filter: `${prefix}${consumerOptions.filter}`,
      });
      await ensureConsumer(config);
      const consumer = await js.consumers.get(stream, config.durable_name);
      const messages = await consumer.consume({ max_messages: PULL_BATCH });
      consumers.add(messages);

      background(logger, 'event consumer', async () => {
        for await (const msg of messages) {
          const settlement = settlementOf(msg, logger);
          const data = decode<T>(msg, logger);
          if (!data) {
            settlement.term();
            continue;
          }
          const delivery = {
            ...messageOf(eventFromWire(msg.subject), data.value, msg),
            deliveryCount: msg.info.deliveryCount,
          };
          await runDurableHandler(handler, delivery, settlement, logger);
        }
      });

      background(logger, 'event consumer status', async () => {
        for await (const notice of messages.status()) {
          if (
            notice.type === 'consumer_deleted' ||
            notice.type === 'consumer_not_found' ||
            notice.type === 'stream_not_found'
          ) {
            logger.warn(
              { stream, durable: config.durable_name, notice: notice.type },
              'bus consumer missing, declaring it again',
            );
            await ensureStream(jsm, stream, wireSubjects, maxAgeMs, options.streamReplicas ?? 1)
              .then(() => ensureConsumer(config))
              .catch((error) => logger.error({ err: errorMessage(error) }, 'bus consumer declaration failed'));
          }
        }
      });

      return {
        unsubscribe: async () => {
          consumers.delete(messages);
          await messages.close();
        },
      };
    },

    async follow<T>(subject: string, handler: Handler<T>) {
      const wire = `${prefix}${subject}`;
      // The last event stored now: the backlog is read once the follower has handled it.
      const last = await jsm.streams.getMessage(stream, { last_by_subj: wire }).catch(() => null);
      const backlogEnd = last?.seq ?? 0;
      // An ordered consumer: ephemeral, one per caller, and it resumes by itself after a reconnect.
      const consumer = await js.consumers.get(stream, { filter_subjects: wire, deliver_policy: DeliverPolicy.All });
      const messages = await consumer.consume();
      consumers.add(messages);
      const { promise: caughtUp, resolve } = Promise.withResolvers<void>();
      if (backlogEnd === 0) resolve();
      background(logger, 'event follower', async () => {
        for await (const msg of messages) {
          const data = decode<T>(msg, logger);
          if (data) await runHandler(handler, messageOf(eventFromWire(msg.subject), data.value, msg), logger);
          if (msg.seq >= backlogEnd) resolve();
        }
        resolve();
      });
      await caughtUp;
      return {
        unsubscribe: async () => {
          consumers.delete(messages);
          await messages.close();
        },
      };
    },

    async pendingEvents(durable) {
      const info = await jsm.consumers.info(stream, durableName(durable));
      return info.num_pending + info.num_ack_pending;
    },

    async request<R>(subject: string, data: unknown, requestOptions?: RequestOptions) {
      const timeout = requestOptions?.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
      let reply: Msg;
      try {
        const headers = wireHeaders(requestOptions?.headers)?.headers;
        reply = await nc.request(toWire(subject), encode(data), { timeout, ...(headers ? { headers } : {}) });
      } catch (error) {
        throw requestFailure(subject, timeout, error);
      }
      return openReply<R>(reply.string());
    },

    async respond<T, R>(subject: string, responder: Responder<T, R>, subscribeOptions?: SubscribeOptions) {
      const sub = nc.subscribe(toWire(subject), { queue: subscribeOptions?.queue });
      background(logger, 'responder', async () => {
        for await (const msg of sub) {
          // Requests are answered concurrently; a slow look-up must not block the next one.
          const answering = answer(responder, fromWire(msg.subject), msg.string(), logger, headersOf(msg));
          background(logger, 'reply', async () => void msg.respond(await answering));
        }
      });
      await nc.flush();
      return { unsubscribe: async () => sub.unsubscribe() };
    },

    isConnected() {
      return connected && !nc.isClosed();
    },

    close() {
      closing ??= (async () => {
        await Promise.all([...consumers].map((messages) => messages.close()));
        consumers.clear();
        if (!nc.isClosed()) await nc.drain();
      })();
      return closing;
    },
  };
}

async function ensureStream(
  jsm: JetStreamManager,
  name: string,
  subjects: string[],
  maxAgeMs: number,
  replicas: number,
): Promise<void> {
  const limits = { subjects, max_age: nanos(maxAgeMs), num_replicas: replicas };
  try {
    await jsm.streams.info(name);
  } catch (error) {
    if (!(error instanceof JetStreamApiError) || error.code !== STREAM_NOT_FOUND) throw error;
    await jsm.streams.add({ name, storage: StorageType.File, retention: RetentionPolicy.Limits, ...limits });
    return;
  }
  await jsm.streams.update(name, limits);
}

function consumerConfig(options: DurableConsumerOptions): Partial<ConsumerConfig> & { durable_name: string } {
  return {
    durable_name: options.durable,
    filter_subject: options.filter,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(options.ackWaitMs ?? DEFAULT_ACK_WAIT_MS),
    max_deliver: options.maxDeliver ?? DEFAULT_MAX_DELIVER,
  };
}

/** Settling on a closed connection throws; the server redelivers anyway, so log and move on. */
function settlementOf(msg: JsMsg, logger: BusLogger): Settlement {
  const guarded = (settle: () => void) => {
    try {
      settle();
    } catch (error) {
      logger.warn({ subject: msg.subject, err: errorMessage(error) }, 'bus could not settle an event');
    }
  };
  return {
    ack: () => guarded(() => msg.ack()),
    nak: (delayMs?: number) => guarded(() => msg.nak(delayMs)),
    term: () => guarded(() => msg.term()),
  };
}

/** Headers on the wire, or nothing (a message without headers stays as small as before). */
function wireHeaders(given: MessageHeaders | undefined): { headers: MsgHdrs } | undefined {
  if (!given) return undefined;
  const entries = Object.entries(given);
  if (entries.length === 0) return undefined;
  const wire = natsHeaders();
  for (const [key, value] of entries) wire.set(key, value);
  return { headers: wire };
}

function headersOf(msg: Msg | JsMsg): MessageHeaders | undefined {
  if (!msg.headers) return undefined;
  const read: Record<string, string> = {};
  for (const key of msg.headers.keys()) read[key] = msg.headers.get(key);
  return read;
}

function messageOf<T>(subject: string, data: T, msg: Msg | JsMsg) {
  const headers = headersOf(msg);
  return headers ? { subject, data, headers } : { subject, data };
}

/** Boxed so that a JSON `null` payload is told apart from an undecodable one. */
function decode<T>(msg: Msg | JsMsg, logger: BusLogger): { value: T } | undefined {
  try {
    return { value: msg.json<T>() };
  } catch (error) {
    logger.error({ subject: msg.subject, err: errorMessage(error) }, 'bus dropped a message that is not JSON');
    return undefined;
  }
}

/** Runs a loop or task in the background; a failure is logged, never an unhandled rejection. */
function background(logger: BusLogger, what: string, task: () => Promise<unknown>): void {
  task().catch((error: unknown) => logger.error({ err: errorMessage(error) }, `bus ${what} failed`));
}

async function watchConnection(nc: NatsConnection, logger: BusLogger, setConnected: (up: boolean) => void) {
  for await (const status of nc.status()) {
    switch (status.type) {
      case 'disconnect':
        setConnected(false);
        logger.warn({ server: status.server }, 'bus disconnected');
        break;
      case 'reconnect':
        setConnected(true);
        logger.info({ server: status.server }, 'bus reconnected');
        break;
      case 'error':
        logger.error({ err: errorMessage(status.error) }, 'bus connection error');
        break;
      case 'close':
        setConnected(false);
        break;
    }
  }
}

function requestFailure(subject: string, timeoutMs: number, error: unknown): unknown {
  if (error instanceof RequestError && error.isNoResponders()) {
    return new BusRequestError('no-responders', `no responders for ${subject}`);
  }
  if (error instanceof TimeoutError || (error instanceof Error && error.cause instanceof TimeoutError)) {
    return new BusRequestError('timeout', `no answer on ${subject} within ${timeoutMs} ms`);
  }
  return error;
}
