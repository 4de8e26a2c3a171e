import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  EventDefinition,
  NoticeDefinition,
  PayloadOf,
  ReplyOf,
  RequestDefinition,
} from '@lakecams/contracts/messages';
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { Validator } from 'typebox/compile';
import { subjectMatches } from './shared.ts';
import {
  type Bus,
  type BusLogger,
  type BusMessage,
  BusRequestError,
  type DurableConsumerOptions,
  type DurableMessage,
  type MessageHeaders,
  type RequestOptions,
  type ServiceBus,
  type SubscribeOptions,
  type Subscription,
} from './types.ts';

/** The header that carries one visitor's request through HTTP hops and bus messages alike. */
export const REQUEST_ID_HEADER = 'x-request-id';

interface MessageContext {
  requestId: string;
  /** Set while a bus handler runs: its log lines name the request (an HTTP request's logger does already). */
  fromBus: boolean;
}
const context = new AsyncLocalStorage<MessageContext>();

/** Run `work` on behalf of a visitor's request: messages sent meanwhile carry its id. */
export function withRequestId<T>(requestId: string, work: () => T): T {
  return context.run({ requestId, fromBus: false }, work);
}

export function currentRequestId(): string | undefined {
  return context.getStore()?.requestId;
}

/** Fields for every log line (a pino `mixin`): the request a bus handler works for. */
export function messageLogFields(): { reqId?: string } {
  const store = context.getStore();
  return store?.fromBus ? { reqId: store.requestId } : {};
}

function outgoing(): { headers?: MessageHeaders } {
  const requestId = currentRequestId();
  return requestId ? { headers: { [REQUEST_ID_HEADER]: requestId } } : {};
}

function handling<T>(message: BusMessage<unknown>, work: () => T): T {
  const requestId = message.headers?.[REQUEST_ID_HEADER];
  return requestId ? context.run({ requestId, fromBus: true }, work) : work();
}

const validators = new WeakMap<TSchema, Validator>();
/** Why `value` does not fit `schema`, or undefined when it does. */
export function payloadProblem(schema: TSchema, value: unknown): string | undefined {
  let validator = validators.get(schema);
  if (!validator) {
    validator = Compile(schema) as unknown as Validator;
    validators.set(schema, validator);
  }
  if (validator.Check(value)) return undefined;
  const [first] = validator.Errors(value);
  return first ? `${first.instancePath || '/'} ${first.message}` : 'does not match its schema';
}

/** A durable event of one of the consumed definitions; `subject` tells which. */
export type EventOf<M extends EventDefinition> =
  M extends EventDefinition<infer S, infer P> ? DurableMessage<Static<P>> & { subject: S } : never;

export type ConsumeOptions = Omit<DurableConsumerOptions, 'filter'>;

/**
 * The bus over the message catalogue: payloads and replies are typed by their definitions, and what
 * arrives is checked against them before a handler sees it. Messages sent while serving a request carry
 * its id; handlers run with the id of the message they handle. The definition alone decides `M` (`NoInfer`
 * elsewhere): inferring it back through TypeBox's `Static` from a payload or handler costs the type checker over
 * a million instantiations in every program that calls the bus.
 */
export interface TypedBus {
  readonly kind: Bus['kind'];
  publish<M extends NoticeDefinition>(notice: M, payload: NoInfer<PayloadOf<M>>): Promise<void>;
  subscribe<M extends NoticeDefinition>(
    notice: M,
    handler: (payload: NoInfer<PayloadOf<M>>) => void | Promise<void>,
    options?: SubscribeOptions,
  ): Promise<Subscription>;
  consume<M extends EventDefinition>(
    events: M | readonly M[],
    handler: (message: NoInfer<EventOf<M>>) => void | Promise<void>,
    options: ConsumeOptions,
  ): Promise<Subscription>;
  follow<M extends EventDefinition>(
    event: M,
    handler: (payload: NoInfer<PayloadOf<M>>) => void | Promise<void>,
  ): Promise<Subscription>;
  request<M extends RequestDefinition>(
    request: M,
    payload: NoInfer<PayloadOf<M>>,
    options?: Omit<RequestOptions, 'headers'>,
  ): Promise<NoInfer<ReplyOf<M>>>;
  respond<M extends RequestDefinition>(
    request: M,
    responder: (payload: NoInfer<PayloadOf<M>>) => NoInfer<ReplyOf<M>> | Promise<NoInfer<ReplyOf<M>>>,
    options?: SubscribeOptions,
  ): Promise<Subscription>;
  pendingEvents(durable: string): Promise<number>;
  isConnected(): boolean;
}

/** The typed bus with the durable publish: for the outbox relay's owner and for tests that play a service. */
export interface TypedEventBus extends TypedBus {
  publishEvent<M extends EventDefinition>(event: M, payload: NoInfer<PayloadOf<M>>): Promise<void>;
}

/** The filter of a durable consumer of these subjects: the subject itself, or their common tokens and `>`. */
export function filterOf(subjects: readonly string[]): string {
  const [first, ...rest] = subjects;
  if (first === undefined) throw new Error('consume needs at least one event');
  if (rest.every((subject) => subject === first)) return first;
  const tokens = first.split('.');
  let common = tokens.length - 1;
  for (const subject of rest) {
    const other = subject.split('.');
    let same = 0;
    while (same < common && other[same] === tokens[same] && same < other.length - 1) same++;
    common = same;
  }
  if (common === 0) throw new Error(`no common subject for ${subjects.join(', ')}`);
  return `${tokens.slice(0, common).join('.')}.>`;
}

export function typedBus(bus: Bus, logger?: BusLogger): TypedEventBus;
export function typedBus(bus: ServiceBus, logger?: BusLogger): TypedBus;
export function typedBus(bus: Bus | ServiceBus, logger: BusLogger = console): TypedBus | TypedEventBus {
  const refuse = (subject: string, problem: string) =>
    logger.error({ subject, problem }, 'bus dropped a message that does not fit the catalogue');

  const typed: TypedBus = {
    kind: bus.kind,
    publish: (notice, payload) => bus.publish(notice.subject, payload, outgoing()),
    subscribe: (notice, handler, options) =>
      bus.subscribe(
        notice.subject,
        (message) =>
          handling(message, () => {
            const problem = payloadProblem(notice.payload, message.data);
            if (problem) return refuse(message.subject, problem);
            return handler(message.data as PayloadOf<typeof notice>);
          }),
        options,
      ),
    consume: (events, handler, options) => {
      const list: readonly EventDefinition[] = Array.isArray(events) ? events : [events as EventDefinition];
      return bus.consume(
        (message) =>
          handling(message, () => {
            const definition = list.find((event) => event.subject === message.subject);
            // A subject the filter takes in but this consumer does not know: nothing to do with it.
            if (!definition) return message.ack();
            const problem = payloadProblem(definition.payload, message.data);
            if (problem) {
              refuse(message.subject, problem);
              return message.term();
            }
            return handler(message as unknown as Parameters<typeof handler>[0]);
          }),
        { ...options, filter: filterOf(list.map((event) => event.subject)) },
      );
    },
    follow: (event, handler) =>
      bus.follow(event.subject, (message) =>
        handling(message, () => {
          if (!subjectMatches(event.subject, message.subject)) return;
          const problem = payloadProblem(event.payload, message.data);
          if (problem) return refuse(message.subject, problem);
          return handler(message.data as PayloadOf<typeof event>);
        }),
      ),
    request: async (request, payload, options) => {
      const reply = await bus.request(request.subject, payload, { ...options, ...outgoing() });
      const problem = payloadProblem(request.reply, reply);
      if (problem)
        throw new BusRequestError('remote-error', `${request.subject} answered out of its schema: ${problem}`);
      return reply as ReplyOf<typeof request>;
    },
    respond: (request, responder, options) =>
      bus.respond(
        request.subject,
        (message) =>
          handling(message, () => {
            const problem = payloadProblem(request.payload, message.data);
            if (problem) throw new Error(`${request.subject} asked out of its schema: ${problem}`);
            return responder(message.data as PayloadOf<typeof request>);
          }),
        options,
      ),
    pendingEvents: (durable) => bus.pendingEvents(durable),
    isConnected: () => bus.isConnected(),
  };
  if (!('publishEvent' in bus) || typeof bus.publishEvent !== 'function') return typed;
  const durable = bus as Bus;
  return {
    ...typed,
    publishEvent: (event, payload) => durable.publishEvent(event.subject, payload, outgoing()),
  };
}
