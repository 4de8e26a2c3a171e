import { type Bus, currentRequestId, REQUEST_ID_HEADER } from '@lakecams/bus';
import type { EventDefinition, PayloadOf } from '@lakecams/contracts/messages';
import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql, type Transaction } from 'kysely';
import pg from 'pg';
import { Gauge, type Registry } from 'prom-client';

/** Most events relayed in one transaction. */
const BATCH = 100;
/** Rows the relay was not woken for (no listener, a bus outage, a crash) are looked for this often. */
const SWEEP_MS = 2_000;
const MAX_BACKOFF_MS = 10_000;
/** Notified in the transaction of every event: PostgreSQL delivers it on commit only, never on rollback. */
const CHANNEL = 'lakecams_outbox';

interface OutboxRow {
  id: string;
  subject: string;
  /** The event as JSON text, exactly as published. */
  data: string;
  /** The request that caused the event, sent on as a message header. */
  requestId: string | null;
}

/**
 * Store a durable event in the transaction of the change it announces: both commit, or neither does.
 * Only a `Transaction` is accepted, so an event cannot be written beside its change by mistake.
 */
export async function publishEvent<DB, M extends EventDefinition>(
  trx: Transaction<DB>,
  event: M,
  payload: NoInfer<PayloadOf<M>>,
): Promise<void> {
  const requestId = currentRequestId() ?? null;
  await sql`
    with stored as (
      insert into lakecams_outbox (subject, data, request_id)
      values (${event.subject}, ${JSON.stringify(payload ?? null)}, ${requestId}) returning id
    )
    select pg_notify(${CHANNEL}, '') from stored
  `.execute(trx);
}

/** Run `work` in the transaction `db` already is, or in a new one. */
export function inTransaction<DB, T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<DB>) : db.transaction().execute(work);
}

/**
 * The outbox table, created by each service's own migration. Databases from before that migration have it
 * already, with the same columns (the kit used to create it at start). Frozen like a migration: a new shape
 * is a new migration.
 */
export async function createOutboxTable(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('lakecams_outbox')
    .ifNotExists()
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

/** The request id of each event (a later migration of every service's own). */
export async function addOutboxRequestId(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lakecams_outbox').addColumn('request_id', 'text').execute();
}

export async function dropOutboxRequestId(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lakecams_outbox').dropColumn('request_id').execute();
}

export async function dropOutboxTable(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('lakecams_outbox').ifExists().execute();
}

/**
 * The relay of a transactional outbox in the service's own database: `publishEvent` stores an event with its
 * change; the relay hands stored events to the bus in order and deletes them once the bus has them. It wakes
 * when a transaction with events commits (LISTEN/NOTIFY on `connectionString`) and sweeps every two seconds
 * for the rest. While the bus is down events wait in the table, so nothing is lost across an outage, a crash
 * or a restart. Delivery is at least once.
 */
export async function createOutbox<DB>(
  bus: Bus,
  db: Kysely<DB>,
  log: FastifyBaseLogger,
  options: { connectionString?: string | undefined } = {},
) {
  let running: Promise<void> | null = null;
  let again = false;
  let failures = 0;
  let retryAt = 0;
  let closed = false;
  let closing = false;
  let listener: pg.Client | undefined;
  let listening: Promise<void> | undefined;

  async function relayBatch(): Promise<number> {
    return db.transaction().execute(async (trx) => {
      const { rows } = await sql<OutboxRow>`
        select id, subject, data, request_id as "requestId" from lakecams_outbox order by id limit ${BATCH} for update skip locked
      `.execute(trx);
      const sent: string[] = [];
      try {
        for (const row of rows) {
          const headers = row.requestId ? { headers: { [REQUEST_ID_HEADER]: row.requestId } } : {};
          await bus.publishEvent(row.subject, JSON.parse(row.data), headers);
          sent.push(row.id);
        }
      } finally {
        if (sent.length > 0) await sql`delete from lakecams_outbox where id = any(${sent}::bigint[])`.execute(trx);
      }
      return rows.length;
    });
  }

  async function relayAll() {
    do {
      again = false;
      try {
        while (!closed && (await relayBatch()) === BATCH) {}
        failures = 0;
      } catch (err) {
        failures++;
        retryAt = Date.now() + Math.min(MAX_BACKOFF_MS, 250 * 2 ** failures);
        // At a stop the events stay in the table for the next start: nothing is lost, nothing to warn of.
        if (closing) log.info({ err }, 'events stay in the outbox until the next start');
        else if (failures === 1 || failures % 20 === 0)
          log.warn({ err, failures }, 'events wait in the outbox until the bus takes them');
        return;
      }
    } while (again && !closed);
  }

  function kick() {
    if (closed || Date.now() < retryAt) return;
    if (running) {
      again = true;
      return;
    }
    running = relayAll().finally(() => {
      running = null;
    });
  }

  /** Wake on every commit with events; a lost connection is opened again by the next sweep. */
  function listen() {
    const { connectionString } = options;
    if (!connectionString || listener || listening || closed) return;
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: 3000 });
    client.on('notification', kick);
    client.on('error', () => {}); // 'end' follows
    client.on('end', () => {
      if (listener === client) listener = undefined;
    });
    listening = (async () => {
      try {
        await client.connect();
        await client.query(`listen ${CHANNEL}`);
        if (closed) throw new Error('closed');
        listener = client;
        // Events committed while nobody listened.
        kick();
      } catch {
        await client.end().catch(() => undefined);
      } finally {
        listening = undefined;
      }
    })();
  }

  listen();
  await listening;
  kick();
  const sweeper = setInterval(() => {
    listen();
    kick();
  }, SWEEP_MS);
  sweeper.unref();

  return {
    /** Events still waiting (shown by tests). */
    async pending(): Promise<number> {
      const { rows } = await sql<{ n: string }>`select count(*) as n from lakecams_outbox`.execute(db);
      return Number(rows[0]?.n ?? 0);
    },
    /** Events still waiting, and how long the oldest has waited (0 when none does). */
    async backlog(): Promise<OutboxBacklog> {
      const { rows } = await sql<{ n: string; age: string | null }>`
        select count(*) as n, extract(epoch from now() - min(created_at)) as age from lakecams_outbox
      `.execute(db);
      return { events: Number(rows[0]?.n ?? 0), oldestAgeSeconds: Math.max(0, Number(rows[0]?.age ?? 0)) };
    },
    /** Hand over what can be handed over now, then stop. */
    async close() {
      closing = true;
      retryAt = 0;
      if (running) await running;
      if (failures === 0) await relayAll().catch(() => undefined);
      closed = true;
      clearInterval(sweeper);
      await listening;
      await listener?.end().catch(() => undefined);
      listener = undefined;
    },
  };
}

export interface OutboxBacklog {
  events: number;
  oldestAgeSeconds: number;
}

/**
 * The outbox's backlog as gauges read at scrape time: a growing count or age means events do not reach the
 * bus. Replicas of a service share its table and report the same numbers. When the table cannot be read
 * both are NaN: unknown, not empty.
 */
export function registerOutboxMetrics(registry: Registry, backlog: () => Promise<OutboxBacklog>): void {
  let reading: Promise<OutboxBacklog | null> | null = null;
  // Both gauges are collected in the same scrape: one query serves them.
  const read = () => {
    reading ??= backlog()
      .catch(() => null)
      .finally(() => {
        reading = null;
      });
    return reading;
  };
  new Gauge({
    name: 'lakecams_outbox_pending_events',
    help: "Events in the service's outbox table not yet handed to the bus",
    registers: [registry],
    async collect() {
      this.set((await read())?.events ?? Number.NaN);
    },
  });
  new Gauge({
    name: 'lakecams_outbox_oldest_event_age_seconds',
    help: "Seconds the oldest event in the service's outbox table has waited for the bus (0 when none waits)",
    registers: [registry],
    async collect() {
      this.set((await read())?.oldestAgeSeconds ?? Number.NaN);
    },
  });
}
