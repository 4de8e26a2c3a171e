import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';

export function createLogger(level: string, name = 'lakecams'): Logger {
  return pino({ name, level });
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
