import { type Bus, createInProcessBus, REQUEST_ID_HEADER, type Subscription, withRequestId } from '@lakecams/bus';
import type { EventDefinition } from '@lakecams/contracts/messages';
import { type Kysely, sql } from 'kysely';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildServiceApp,
  createLogger,
  addOutboxRequestId,
  createOutboxTable,
  dropOutboxRequestId,
  dropOutboxTable,
  publishEvent,
  type ServiceApp,
} from '../src/index.ts';
import { createTestDatabase } from '../src/testing.ts';

/** An event of this test's own service, on a subject of the events stream. */
const NoteAdded = {
  kind: 'event',
  subject: 'webcam.note.added',
  payload: Type.Object({ name: Type.String() }),
  summary: 'A note was added',
} as const satisfies EventDefinition;
const SUBJECT = NoteAdded.subject;

async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('outbox: an event commits with its change or not at all', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let bus: Bus;
  let app: ServiceApp;
  let db: Kysely<unknown>;
  let consumer: Subscription;
  const received: { name: string }[] = [];
  const requestIds = new Map<string, string | undefined>();

  const notes = async () =>
    (await sql<{ name: string }>`select name from notes order by name`.execute(db)).rows.map((r) => r.name);
  /** A change with its event, then whatever `after` does in the same transaction. */
  const change = (name: string, after: (trx: Parameters<typeof publishEvent>[0]) => Promise<void> = async () => {}) =>
    db.transaction().execute(async (trx) => {
      await sql`insert into notes (name) values (${name})`.execute(trx);
      await publishEvent(trx, NoteAdded, { name });
      await after(trx);
    });
  const arrived = (name: string) =>
    eventually(() => received.some((event) => event.name === name), `${name} to arrive`);

  beforeAll(async () => {
    database = await createTestDatabase('outbox');
    bus = await createInProcessBus();
    app = await buildServiceApp(
      {
        name: 'outbox-test',
        version: '0',
        migrations: {
          '2026-11-25-01-outbox': { up: createOutboxTable, down: dropOutboxTable },
          '2026-11-27-01-outbox-request-id': { up: addOutboxRequestId, down: dropOutboxRequestId },
          '2026-11-25-02-notes': {
            up: async (db) => {
              await sql`create table notes (name text primary key)`.execute(db);
            },
          },
        },
        plugin: async (_app, _options, serviceDb: Kysely<unknown>) => {
          db = serviceDb;
        },
      },
      { bus, logger: createLogger('silent'), databaseUrl: database.url },
    );
    consumer = await bus.consume<{ name: string }>(
      (message) => {
        received.push(message.data);
        requestIds.set(message.data.name, message.headers?.[REQUEST_ID_HEADER]);
        message.ack();
      },
      { durable: 'outbox-test', filter: SUBJECT },
    );
  });

  afterAll(async () => {
    await consumer?.unsubscribe();
    await app?.close();
    await bus?.close();
    await database?.drop();
  });

  it('stores nothing and publishes nothing when the transaction fails after the event', async () => {
    await expect(
      change('thrown', async () => {
        throw new Error('fails after the event');
      }),
    ).rejects.toThrow('fails after the event');
    await change('taken');
    // A constraint violation after the event: "taken" exists already.
    await expect(
      change('refused', async (trx) => {
        await sql`insert into notes (name) values ('taken')`.execute(trx);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    await change('last');

    // Events leave in order: once the last one is here, an event of a failed transaction would be too.
    await arrived('last');
    expect(received.map((event) => event.name)).toEqual(['taken', 'last']);
    expect(await notes()).toEqual(['last', 'taken']);
    await eventually(async () => (await app.outboxPending?.()) === 0, 'the outbox to empty');
  });

  it('sends the event on with the id of the request that caused it', async () => {
    await withRequestId('visitor-request-1', () => change('requested'));
    await change('unrequested');
    await arrived('unrequested');
    expect(requestIds.get('requested')).toBe('visitor-request-1');
    expect(requestIds.get('unrequested')).toBeUndefined();
  });

  it('relays an event whose transaction commits after the relay last looked', async () => {
    let written = () => {};
    let release = () => {};
    const eventWritten = new Promise<void>((resolve) => {
      written = resolve;
    });
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // "early" is written first and committed last: the relay woken by "late" cannot see it yet.
    const early = change('early', async () => {
      written();
      await held;
    });
    await eventWritten;
    await change('late');
    await arrived('late');
    expect(received.map((event) => event.name)).not.toContain('early');
    release();
    await early;
    await arrived('early');
    // The relay deletes what it handed over when its transaction commits, just after the bus delivered it.
    await eventually(async () => (await app.outboxPending?.()) === 0, 'the outbox to empty');
  });

  it('leaves durable publishing to the relay: services get no publishEvent on their bus', () => {
    expect('publishEvent' in app.bus).toBe(false);
    // @ts-expect-error the bus services see has no durable publish
    expect(app.bus.publishEvent).toBeUndefined();
  });

  it('refuses, at compile time, an event outside a transaction', () => {
    const outsideATransaction = () =>
      // @ts-expect-error the pool is no transaction: the event could commit without its change, or after a crash not at all
      publishEvent(db, NoteAdded, { name: 'loose' });
    expect(outsideATransaction).toBeTypeOf('function');
  });
});

describe('outbox of a database from before the migrations', () => {
  it('keeps the table the kit made at start, and relays the events waiting there', async () => {
    const database = await createTestDatabase('oldoutbox');
    const bus = await createInProcessBus();
    const received: unknown[] = [];
    const consumer = await bus.consume(
      (message) => {
        received.push(message.data);
        message.ack();
      },
      { durable: 'old-outbox-test', filter: SUBJECT },
    );
    const definition = {
      name: 'old-outbox-test',
      version: '0',
      migrations: {
        '2026-11-25-01-outbox': { up: createOutboxTable, down: dropOutboxTable },
        '2026-11-27-01-outbox-request-id': { up: addOutboxRequestId, down: dropOutboxRequestId },
      },
      plugin: async (_app: unknown, _options: unknown, serviceDb: Kysely<unknown>) => {
        db = serviceDb;
      },
    };
    let db: Kysely<unknown> | undefined;
    const serviceDb = () => {
      if (!db) throw new Error('the service got no database');
      return db;
    };
    const runtime = { bus, logger: createLogger('silent'), databaseUrl: database.url };
    // The table as the kit created it with raw SQL at start, with an event still waiting.
    const before = await buildServiceApp({ ...definition, migrations: {} }, runtime);
    await sql`create table lakecams_outbox (
      id bigserial primary key,
      subject text not null,
      data text not null,
      created_at timestamptz not null default now()
    )`.execute(serviceDb());
    await sql`insert into lakecams_outbox (subject, data) values (${SUBJECT}, '{"name":"waiting"}')`.execute(
      serviceDb(),
    );
    await before.close();
    let app: ServiceApp | undefined;
    try {
      app = await buildServiceApp(definition, runtime);
      await eventually(() => received.length > 0, 'the waiting event');
      expect(received).toEqual([{ name: 'waiting' }]);
      const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(serviceDb());
      expect(rows.map((row) => row.name)).toEqual(['2026-11-25-01-outbox', '2026-11-27-01-outbox-request-id']);
    } finally {
      await app?.close();
      await consumer.unsubscribe();
      await bus.close();
      await database.drop();
    }
  });
});
