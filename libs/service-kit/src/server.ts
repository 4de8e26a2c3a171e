import { messageLogFields } from '@lakecams/bus';
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { type DestinationStream, pino, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { ConfigError } from './config.ts';

export type LogFormat = 'json' | 'pretty';

/** `LOG_FORMAT` when set (json or pretty); otherwise readable lines on a terminal and JSON elsewhere. */
export function logFormatFrom(value: string | undefined, terminal: boolean): LogFormat {
  if (value === 'json' || value === 'pretty') return value;
  if (value) throw new ConfigError(`LOG_FORMAT must be json or pretty, not ${value}`);
  return terminal ? 'pretty' : 'json';
}

/** One readable line: time, level, service, request id and message; other fields follow indented. */
export function prettyStream(destination?: NodeJS.WritableStream) {
  return pretty({
    colorize: destination === undefined && process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,name,service,reqId',
    messageFormat: (log, messageKey) => {
      const service = String(log.service ?? log.name ?? '');
      const request = log.reqId ? ` [${String(log.reqId)}]` : '';
      return `${service}${request} ${String(log[messageKey] ?? '')}`;
    },
    sync: true,
    ...(destination ? { destination } : {}),
  });
}

export function createLogger(
  level: string,
  name = 'lakecams',
  format = logFormatFrom(process.env.LOG_FORMAT, process.stdout.isTTY === true),
  /** JSON lines go here instead of stdout (a test reading every line). */
  destination?: DestinationStream,
): Logger {
  // Lines logged while a bus message is handled name the request that sent it.
  const options = { name, level, mixin: messageLogFields };
  if (destination) return pino(options, destination);
  return format === 'pretty' ? pino(options, prettyStream()) : pino(options);
}

/** Listen and close gracefully on SIGINT/SIGTERM or a fatal error; `onClose` runs after the app closed. */
export async function listenWithGrace(
  app: FastifyInstance,
  address: { host: string; port: number },
  onClose?: () => Promise<void>,
): Promise<string> {
  closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'shutting down after fatal error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
    await onClose?.();
  });
  return app.listen(address);
}
