import type {
  BusLogger,
  BusMessage,
  DurableHandler,
  DurableMessage,
  Handler,
  MessageHeaders,
  Responder,
} from './types.ts';
import { BusRequestError } from './types.ts';

export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;
export const DEFAULT_ACK_WAIT_MS = 30_000;
export const DEFAULT_MAX_DELIVER = 5;
/** Subjects of the durable events stream; `publishEvent` refuses anything else. */
export const DEFAULT_STREAM_SUBJECTS = ['webcam.>', 'referer.>', 'imaging.>', 'identity.>', 'mail.>'];

/** NATS subject matching: `*` is one token, a trailing `>` is one or more. */
export function subjectMatches(pattern: string, subject: string): boolean {
  const patternTokens = pattern.split('.');
  const subjectTokens = subject.split('.');
  for (let i = 0; i < patternTokens.length; i++) {
    const token = patternTokens[i];
    if (token === '>') return subjectTokens.length > i;
    if (i >= subjectTokens.length || (token !== '*' && token !== subjectTokens[i])) return false;
  }
  return patternTokens.length === subjectTokens.length;
}

export function assertEventSubject(streamSubjects: string[], subject: string): void {
  if (!streamSubjects.some((pattern) => subjectMatches(pattern, subject))) {
    throw new Error(`${subject} is not an event subject (stream subjects: ${streamSubjects.join(', ')})`);
  }
}

/** Both implementations put the same JSON text on the wire, so payloads round-trip identically. */
export function encode(data: unknown): string {
  return JSON.stringify(data ?? null);
}

type ReplyEnvelope = { ok: true; data?: unknown } | { ok: false; error: string };

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs a responder on a JSON request and wraps its result or failure for the requester. */
export async function answer<T, R>(
  responder: Responder<T, R>,
  subject: string,
  payload: string,
  logger: BusLogger,
  headers?: MessageHeaders,
): Promise<string> {
  try {
    const data = JSON.parse(payload) as T;
    const envelope: ReplyEnvelope = {
      ok: true,
      data: await responder(headers ? { subject, data, headers } : { subject, data }),
    };
    return JSON.stringify(envelope);
  } catch (error) {
    logger.warn({ subject, err: errorMessage(error) }, 'bus responder failed');
    const envelope: ReplyEnvelope = { ok: false, error: errorMessage(error) };
    return JSON.stringify(envelope);
  }
}

export function openReply<R>(text: string): R {
  const envelope = JSON.parse(text) as ReplyEnvelope;
  if (!envelope.ok) throw new BusRequestError('remote-error', envelope.error);
  return envelope.data as R;
}

export async function runHandler<T>(handler: Handler<T>, message: BusMessage<T>, logger: BusLogger): Promise<void> {
  try {
    await handler(message);
  } catch (error) {
    logger.error({ subject: message.subject, err: errorMessage(error) }, 'bus subscriber failed');
  }
}

export interface Settlement {
  ack(): void;
  nak(delayMs?: number): void;
  term(): void;
}

/** Runs a durable handler; only the first settlement counts, and a throw without settling naks. */
export async function runDurableHandler<T>(
  handler: DurableHandler<T>,
  delivery: BusMessage<T> & { deliveryCount: number },
  settlement: Settlement,
  logger: BusLogger,
): Promise<void> {
  let settled = false;
  const once =
    <A extends unknown[]>(settle: (...args: A) => void) =>
    (...args: A) => {
      if (settled) return;
      settled = true;
      settle(...args);
    };
  const message: DurableMessage<T> = {
    ...delivery,
    ack: once(() => settlement.ack()),
    nak: once((delayMs?: number) => settlement.nak(delayMs)),
    term: once(() => settlement.term()),
  };
  try {
    await handler(message);
  } catch (error) {
    logger.error(
      { subject: message.subject, deliveryCount: message.deliveryCount, err: errorMessage(error) },
      'bus event handler failed',
    );
    message.nak();
  }
}
