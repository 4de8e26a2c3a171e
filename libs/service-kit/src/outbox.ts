import type { Bus } from '@lakecams/bus';
import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql } from 'kysely';

/** Most events relayed in one transaction. */
const BATCH = 100;
/** Rows left behind (a bus outage, a crash) are looked for this often. */
const SWEEP_MS = 2_000;
const MAX_BACKOFF_MS = 10_000;

interface OutboxRow {
  id: string;
  subject: string;
  /** The event as JSON text, exactly as published. */
  data: string;
}

/**
 * A transactional outbox in the service's own database: `publishEvent` stores the event and returns;
 * a relay hands stored events to the bus in order and deletes them once the bus has them. While the
 * bus is down events wait in the table, so a service keeps working and nothing is lost across an
 * outage or a restart. Delivery is at least once.
 */
export async function createOutbox(bus: Bus, db: Kysely<unknown>, log: FastifyBaseLogger) {
  // Infrastructure of the kit, not of any service's schema: created here rather than by a service migration.
  await sql`create table if not exists lakecams_outbox (
    id bigserial primary key,
    subject text not null,
    data text not null,
    created_at timestamptz not null default now()
  )`
    .execute(db)
    .catch((error: { code?: string }) => {
      // Replicas starting together race on "if not exists": the loser finds the table made.
      if (error.code !== '23505' && error.code !== '42P07') throw error;
    });

  let running: Promise<void> | null = null;
  let again = false;
  let failures = 0;
  let retryAt = 0;
  let closed = false;

  async function relayBatch(): Promise<number> {
    return db.transaction().execute(async (trx) => {
      const { rows } = await sql<OutboxRow>`
        select id, subject, data from lakecams_outbox order by id limit ${BATCH} for update skip locked
      `.execute(trx);
      const sent: string[] = [];
      try {
        for (const row of rows) {
          await bus.publishEvent(row.subject, JSON.parse(row.data));
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
        if (failures === 1 || failures % 20 === 0)
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

  const sweeper = setInterval(kick, SWEEP_MS);
  sweeper.unref();

  const outboxBus: Bus = {
    get kind() {
      return bus.kind;
    },
    publish: (subject, data) => bus.publish(subject, data),
    subscribe: (subject, handler, options) => bus.subscribe(subject, handler, options),
    async publishEvent(subject, data) {
      await sql`insert into lakecams_outbox (subject, data) values (${subject}, ${JSON.stringify(data ?? null)})`.execute(
        db,
      );
      kick();
    },
    consume: (handler, options) => bus.consume(handler, options),
    request: (subject, data, options) => bus.request(subject, data, options),
    respond: (subject, responder, options) => bus.respond(subject, responder, options),
    isConnected: () => bus.isConnected(),
    close: () => bus.close(),
  };

  return {
    bus: outboxBus,
    /** Events still waiting (shown by tests and metrics). */
    async pending(): Promise<number> {
      const { rows } = await sql<{ n: string }>`select count(*) as n from lakecams_outbox`.execute(db);
      return Number(rows[0]?.n ?? 0);
    },
    /** Hand over what can be handed over now, then stop. */
    async close() {
      retryAt = 0;
      if (running) await running;
      if (failures === 0) await relayAll().catch(() => undefined);
      closed = true;
      clearInterval(sweeper);
    },
  };
}
