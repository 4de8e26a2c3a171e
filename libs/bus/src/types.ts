/** A message delivered to a plain subscriber or a request handler. */
export interface BusMessage<T = unknown> {
  subject: string;
  data: T;
  /** Message headers as sent (NATS headers), e.g. the request id of the visitor's request that caused it. */
  headers?: MessageHeaders;
}

export type MessageHeaders = Readonly<Record<string, string>>;

export interface PublishOptions {
  headers?: MessageHeaders;
}

/** A message delivered to a durable consumer; it must be settled exactly once. */
export interface DurableMessage<T = unknown> extends BusMessage<T> {
  /** 1 on first delivery, incremented on every redelivery. */
  deliveryCount: number;
  ack(): void;
  /** Ask for redelivery, optionally after a delay in milliseconds. */
  nak(delayMs?: number): void;
  /** Give up on this message: it is never redelivered. */
  term(): void;
}

export interface Subscription {
  unsubscribe(): Promise<void>;
}

export interface SubscribeOptions {
  /** Members of one queue group share the messages: each message reaches one member. */
  queue?: string;
}

export interface DurableConsumerOptions {
  /** Durable name: consumers with the same name share one cursor and its messages (work queue). */
  durable: string;
  /** Subject filter within the events stream, wildcards allowed (e.g. `webcam.camera.>`). */
  filter: string;
  /** Redeliver when not settled within this time. Default 30 s. */
  ackWaitMs?: number;
  /** Give up after this many deliveries. Default 5. */
  maxDeliver?: number;
}

export interface RequestOptions extends PublishOptions {
  timeoutMs?: number;
}

export type Handler<T> = (message: BusMessage<T>) => void | Promise<void>;
export type DurableHandler<T> = (message: DurableMessage<T>) => void | Promise<void>;
export type Responder<T, R> = (message: BusMessage<T>) => R | Promise<R>;

/**
 * The one interface services depend on. Payloads are JSON values.
 * `publish`/`subscribe` are fire-and-forget (core NATS); `publishEvent`/`consume` are durable
 * (JetStream: persisted, explicit ack, redelivery); `request`/`respond` are look-ups.
 * Core messages and events never mix, even on the same subject: subscribers see no events, consumers no core messages.
 */
export interface Bus {
  readonly kind: 'nats' | 'in-process';
  publish(subject: string, data: unknown, options?: PublishOptions): Promise<void>;
  subscribe<T = unknown>(subject: string, handler: Handler<T>, options?: SubscribeOptions): Promise<Subscription>;
  /** Persist an event; resolves once the bus has stored it. */
  publishEvent(subject: string, data: unknown, options?: PublishOptions): Promise<void>;
  consume<T = unknown>(handler: DurableHandler<T>, options: DurableConsumerOptions): Promise<Subscription>;
  /**
   * Read every stored event on `subject` (wildcards allowed), oldest first, then each new one as it is
   * stored: each caller reads them all (nothing shared, nothing acked), e.g. every replica keeping the same
   * in-memory list. Resolves once the events stored before the call were handled.
   */
  follow<T = unknown>(subject: string, handler: Handler<T>): Promise<Subscription>;
  request<R = unknown>(subject: string, data: unknown, options?: RequestOptions): Promise<R>;
  /** Answer requests on a subject; responders in the same queue group share the load. */
  respond<T = unknown, R = unknown>(
    subject: string,
    responder: Responder<T, R>,
    options?: SubscribeOptions,
  ): Promise<Subscription>;
  /**
   * Events stored for a durable consumer and not yet acknowledged by it: not yet delivered, or delivered and
   * not yet settled. Consumers sharing the durable name share the count. Throws for a durable never consumed.
   */
  pendingEvents(durable: string): Promise<number>;
  /** True while the bus can deliver (used by /ready). */
  isConnected(): boolean;
  /** Stop subscriptions, drain, close. */
  close(): Promise<void>;
}

/**
 * The bus as a service sees it. A service's durable events go through its outbox (`publishEvent(trx, …)` of the
 * service kit), in the transaction of the change they announce; only the outbox's relay calls `Bus.publishEvent`.
 */
export type ServiceBus = Omit<Bus, 'publishEvent'>;

/** Pino-style logger (fields first); `console` fits too. */
export interface BusLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** Thrown by `request` when nobody answers in time, or the responder failed. */
export class BusRequestError extends Error {
  readonly code: 'timeout' | 'no-responders' | 'remote-error';
  constructor(code: 'timeout' | 'no-responders' | 'remote-error', message: string) {
    super(message);
    this.name = 'BusRequestError';
    this.code = code;
  }
}
