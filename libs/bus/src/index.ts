import { createInProcessBus } from './in-process-bus.ts';
import { createNatsBus } from './nats-bus.ts';
import type { Bus, BusLogger } from './types.ts';

export type { InProcessBusOptions } from './in-process-bus.ts';
export { createInProcessBus, DEFAULT_EVENT_LOG_LIMIT } from './in-process-bus.ts';
export type { NatsBusOptions } from './nats-bus.ts';
export { CORE_SUBJECT_PREFIX, createNatsBus, DEFAULT_STREAM, DEFAULT_STREAM_MAX_AGE_MS } from './nats-bus.ts';
export { DEFAULT_STREAM_SUBJECTS, subjectMatches } from './shared.ts';
export type {
  Bus,
  BusLogger,
  BusMessage,
  DurableConsumerOptions,
  DurableHandler,
  DurableMessage,
  Handler,
  MessageHeaders,
  PublishOptions,
  RequestOptions,
  Responder,
  ServiceBus,
  SubscribeOptions,
  Subscription,
} from './types.ts';
export { BusRequestError } from './types.ts';

export interface BusConfig {
  /** NATS server URL(s); without it the bus lives inside this process. */
  natsUrl?: string;
  /** Connection name, usually the service name. */
  name: string;
  logger?: BusLogger;
  /** Events stream name on NATS; default `DEFAULT_STREAM`. */
  stream?: string;
  /** Subjects `publishEvent` accepts; default `DEFAULT_STREAM_SUBJECTS`. */
  subjects?: string[];
  /** NATS only: keep this bus apart from others on the same server (see `NatsBusOptions.namespace`). */
  namespace?: string;
  /** NATS only: copies of the events stream in a cluster (`NatsBusOptions.streamReplicas`). */
  streamReplicas?: number;
}

export async function createBus(config: BusConfig): Promise<Bus> {
  const { natsUrl, name, logger, stream, subjects, namespace, streamReplicas } = config;
  if (natsUrl) return createNatsBus({ servers: natsUrl, name, logger, stream, subjects, namespace, streamReplicas });
  return createInProcessBus({ logger, subjects });
}
export type { ConsumeOptions, EventOf, TypedBus, TypedEventBus } from './typed-bus.ts';
export {
  currentRequestId,
  filterOf,
  messageLogFields,
  payloadProblem,
  REQUEST_ID_HEADER,
  typedBus,
  withRequestId,
} from './typed-bus.ts';
