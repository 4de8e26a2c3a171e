import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Waits until `check` holds, looking every 200 ms; a check that throws counts as not yet. */
export async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * A NATS server with JetStream used only by one test, started and stopped like the machine's own
 * (DEVELOPERS.md), on its own port and store, so the test can take it away from the services.
 */
export function testNatsServer(port: number, storeDir: string) {
  const pidFile = join(storeDir, 'nats.pid');
  return {
    url: `nats://127.0.0.1:${port}`,
    async start() {
      await run('start-stop-daemon', [
        '--start',
        '--background',
        '--make-pidfile',
        '--pidfile',
        pidFile,
        '--exec',
        '/usr/sbin/nats-server',
        '--',
        '-a',
        '127.0.0.1',
        '-p',
        String(port),
        '-js',
        '-sd',
        join(storeDir, 'jetstream'),
      ]);
      await eventually(
        () =>
          new Promise<boolean>((resolve) => {
            const socket = createServer().listen(port, '127.0.0.1');
            socket.once('listening', () => socket.close(() => resolve(false)));
            socket.once('error', () => resolve(true));
          }),
        'the test NATS server to listen',
        10_000,
      );
    },
    async stop() {
      await run('start-stop-daemon', ['--stop', '--pidfile', pidFile, '--remove-pidfile', '--retry', '5']);
    },
  };
}
