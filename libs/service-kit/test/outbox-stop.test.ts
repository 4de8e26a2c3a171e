import { createInProcessBus } from '@lakecams/bus';
import type { FastifyBaseLogger } from 'fastify';
import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createKysely } from '../src/database.ts';
import { createOutbox } from '../src/outbox.ts';

/** A logger that keeps what was said at each level. */
function recordingLogger() {
  const said: { level: string; msg: string }[] = [];
  const at = (level: string) => (_object: unknown, msg?: string) => said.push({ level, msg: msg ?? '' });
  const logger = { warn: at('warn'), info: at('info'), error: at('error'), debug: at('debug') };
  return { said, logger: logger as unknown as FastifyBaseLogger };
}

describe('outbox at a stop', () => {
  it('says at info, not as a warning, that events stay for the next start when the database is too slow', async () => {
    // A database that accepts connections and never answers: the relay's connection times out.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const db = createKysely<unknown>({
      connectionString: `postgres://postgres@127.0.0.1:${port}/none`,
      connectionTimeoutMs: 300,
    });
    const bus = createInProcessBus();
    const { said, logger } = recordingLogger();
    try {
      // The relay starts at once and is still waiting for its connection when the service stops.
      const outbox = await createOutbox(bus, db, logger);
      await outbox.close();
      expect(said.filter((entry) => entry.level === 'warn')).toEqual([]);
      expect(said).toContainEqual({ level: 'info', msg: 'events stay in the outbox until the next start' });
    } finally {
      await db.destroy();
      await bus.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
