import { ANTI_FORGERY_SESSION_COOKIE, XSRF_COOKIE, XSRF_HEADER } from '@lakecams/contracts';
import { type Bus, createInProcessBus, createNatsBus } from '@lakecams/bus';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import type { FastifyPluginOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { dropDatabase, ensureDatabase, withDatabase } from './database-url.ts';
import { createKysely } from './database.ts';
import { createLogger } from './server.ts';
import { buildServiceApp, type ServiceApp, type ServiceDefinition, type ServiceRuntime } from './service-app.ts';
import { generateSigningKeys, type SigningKeys } from './signing-keys.ts';

/** The machine's PostgreSQL used by integration tests (trust auth on loopback). */
export const TEST_DATABASE_SERVER = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** A fresh, uniquely named database for one test file; `drop()` removes it. */
export async function createTestDatabase(
  label: string,
): Promise<{ url: string; prefix: string; drop(): Promise<void> }> {
  const prefix = `lakecams_test_${randomBytes(4).toString('hex')}`;
  const url = withDatabase(TEST_DATABASE_SERVER, `${prefix}_${label}`);
  await ensureDatabase(url);
  return { url, prefix, drop: () => dropDatabase(url) };
}

/** Database URLs named `<prefix>_<service>` on the test server, dropped together. */
export function testDatabasePrefix(): {
  prefix: string;
  urlOf(service: string): string;
  /** `DATABASE_URL_<SERVICE>` for each service, as a process started by a test reads them. */
  environment(services: readonly string[]): Record<string, string>;
  dropAll(services: readonly string[]): Promise<void>;
} {
  const prefix = `lakecams_test_${randomBytes(4).toString('hex')}`;
  const urlOf = (service: string) => withDatabase(TEST_DATABASE_SERVER, `${prefix}_${service}`);
  return {
    prefix,
    urlOf,
    environment: (services) =>
      Object.fromEntries(services.map((service) => [`DATABASE_URL_${service.toUpperCase()}`, urlOf(service)])),
    dropAll: async (services) => {
      for (const service of services) await dropDatabase(urlOf(service));
    },
  };
}

/** What a gateway hands out for anti-forgery: its cookies as one Cookie header, and the token to echo. */
export interface AntiForgeryPair {
  cookie: string;
  token: string;
}

/** The anti-forgery pair among an answer's Set-Cookie lines (the session id cookie and the token cookie). */
export function antiForgeryFrom(setCookies: string[]): AntiForgeryPair | undefined {
  const pairs = setCookies.map((line) => line.split(';')[0] ?? '');
  const named = (name: string) =>
    pairs.find((pair) => pair.startsWith(`${name}=`) || pair.startsWith(`__Host-${name}=`));
  const session = named(ANTI_FORGERY_SESSION_COOKIE);
  const token = named(XSRF_COOKIE);
  if (!session || !token) return undefined;
  return { cookie: `${session}; ${token}`, token: token.slice(token.indexOf('=') + 1) };
}

/** Headers of a mutating request with the pair: the cookies (after `cookie`, if given) and the echoed token. */
export function antiForgeryHeaders(pair: AntiForgeryPair, cookie?: string): Record<string, string> {
  return { cookie: [cookie, pair.cookie].filter(Boolean).join('; '), [XSRF_HEADER.toLowerCase()]: pair.token };
}

/** A small HTTP client for tests that keeps cookies like a browser and echoes the anti-forgery cookie. */
export function createTestClient(baseUrl: string) {
  const cookies = new Map<string, string>();
  let bearer: string | undefined;
  let impersonate: string | undefined;

  function remember(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', ...value] = pair.split('=');
      const expired = attributes.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
      if (expired || value.join('=') === '') cookies.delete(name.trim());
      else cookies.set(name.trim(), value.join('='));
    }
  }

  async function request(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}) {
    if (method !== 'GET' && method !== 'HEAD' && !cookies.has('XSRF-TOKEN')) remember(await fetch(`${baseUrl}/health`));
    const headers: Record<string, string> = { ...extraHeaders };
    if (cookies.size) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const xsrf = cookies.get('XSRF-TOKEN');
    if (xsrf && method !== 'GET') headers['x-xsrf-token'] = xsrf;
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    if (impersonate) headers.impersonate = impersonate;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    remember(response);
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    // biome-ignore lint/suspicious/noExplicitAny: tests assert on the JSON they expect
    return { status: response.status, text, json: json as any, headers: response.headers };
  }

  return {
    cookies,
    setToken(token: string | undefined) {
      bearer = token;
    },
    impersonate(userId: string | undefined) {
      impersonate = userId;
    },
    get: (path: string, headers?: Record<string, string>) => request('GET', path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => request('POST', path, body, headers),
    put: (path: string, body?: unknown) => request('PUT', path, body),
    delete: (path: string, body?: unknown) => request('DELETE', path, body),
  };
}
export type TestClient = ReturnType<typeof createTestClient>;

/** A port nothing listens on right now (the system picks it), for a process a test starts. */
export { freePort } from './free-port.ts';

/** The bus service integration tests run on: `TEST_BUS=nats` runs the same suites on the NATS server. */
export const TEST_BUS: 'nats' | 'in-process' = process.env.TEST_BUS === 'nats' ? 'nats' : 'in-process';

const quietBus = { info() {}, warn() {}, error() {} };

/** Remove what a namespaced NATS bus (and object stores named with it) left on the test server. */
export async function removeNatsNamespace(namespace: string, streams: string[] = []): Promise<void> {
  const nc = await connect({ servers: TEST_NATS_URL });
  try {
    const jsm = await jetstreamManager(nc);
    for (const stream of [`LAKECAMS_${namespace}`, ...streams]) await jsm.streams.delete(stream).catch(() => false);
  } finally {
    await nc.close();
  }
}

/**
 * A bus for one test file: in-process, or with `TEST_BUS=nats` a connection to the test NATS server in a
 * namespace of its own, removed by `close()`. `open()` adds another connection to the same bus (a second
 * replica); in-process it is the same bus.
 */
export async function createTestBus(): Promise<{
  bus: Bus;
  kind: typeof TEST_BUS;
  open(): Promise<Bus>;
  close(): Promise<void>;
}> {
  if (TEST_BUS === 'in-process') {
    const bus = createInProcessBus({ logger: quietBus });
    return { bus, kind: TEST_BUS, open: async () => bus, close: () => bus.close() };
  }
  const namespace = `t${randomBytes(4).toString('hex')}`;
  const connect = () => createNatsBus({ servers: TEST_NATS_URL, name: 'test', namespace, logger: quietBus });
  const opened = [await connect()];
  return {
    bus: opened[0] as Bus,
    kind: TEST_BUS,
    open: async () => {
      const bus = await connect();
      opened.push(bus);
      return bus;
    },
    close: async () => {
      for (const bus of opened.splice(0)) await bus.close();
      await removeNatsNamespace(namespace);
    },
  };
}

export type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

/** What a test may bring to a service it builds; anything not given the builder makes and later removes. */
export interface TestServiceOptions<Options> {
  /** The service's own options. */
  options?: Options;
  /** The bus of another service in the same test, which closes it; by default a test bus of its own. */
  bus?: Bus;
  /** A database to start on again, which the caller drops; by default a fresh one. */
  database?: TestDatabase;
  /** The keys access tokens are signed with, shared with the test's other services; by default new ones. */
  keys?: SigningKeys;
  /** By default silent. */
  logger?: ServiceRuntime['logger'];
}

/**
 * One service for one test (fastify/demo's `build`): on a fresh test database and the test bus (in-process, or
 * NATS with `TEST_BUS=nats`), with a silent logger and new signing keys unless given. `db` is the test's own
 * connection to the service's database, typed by its tables. `close()` closes the app, that connection, then
 * what the builder made (bus, database) and `cleanUp`; a failed build leaves nothing behind either.
 */
export async function buildTestService<Options extends FastifyPluginOptions, DB>(
  definition: ServiceDefinition<Options, DB>,
  given: TestServiceOptions<Options> = {},
  cleanUp: () => Promise<void> = async () => {},
) {
  const keys = given.keys ?? generateSigningKeys();
  const logger = given.logger ?? createLogger('silent');
  const testBus = given.bus ? undefined : await createTestBus();
  const bus = given.bus ?? (testBus?.bus as Bus);
  const database = given.database ?? (await createTestDatabase(definition.name));
  const build = (options: Options | undefined) =>
    buildServiceApp(definition, {
      bus,
      logger,
      databaseUrl: database.url,
      jwtPublicKey: keys.publicKey,
      ...(options ? { options } : {}),
    });
  const closeOwn = async () => {
    await testBus?.close();
    if (!given.database) await database.drop();
    await cleanUp();
  };
  let app: ServiceApp;
  try {
    app = await build(given.options);
  } catch (error) {
    await closeOwn();
    throw error;
  }
  const db: Kysely<DB> = createKysely<DB>({ connectionString: database.url });
  return {
    get app() {
      return app;
    },
    bus,
    database,
    db,
    keys,
    /** Stop the app and start it again on the same bus and database (a new version, other options). */
    async restart(options?: Options) {
      await app.close();
      app = await build(options);
    },
    async close() {
      await app.close();
      await db.destroy();
      await closeOwn();
    },
  };
}
