import net from 'node:net';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, describe, expect, it } from 'vitest';
import { createBus, createNatsBus } from '../src/index.ts';
import { describeBusContract, silentLogger, waitUntil } from './bus-contract.ts';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
// The server is shared: this run owns one stream and one subject prefix, and removes the stream afterwards.
const run = `${process.pid}_${Date.now().toString(36)}`;
const stream = `BUS_TEST_${run}`;
const prefix = `bus_test_${run}`;

const makeBus = (servers = NATS_URL) =>
  createNatsBus({ servers, name: 'bus-contract-test', stream, subjects: [`${prefix}.>`], logger: silentLogger });

afterAll(async () => {
  const nc = await connect({ servers: NATS_URL });
  const jsm = await jetstreamManager(nc);
  await jsm.streams.delete(stream).catch(() => false);
  await nc.close();
});

describeBusContract('nats', () => makeBus(), { prefix });

describe('nats bus', () => {
  it('updates an existing stream to the declared subjects', async () => {
    const streamSubjects = async () => {
      const nc = await connect({ servers: NATS_URL });
      const info = await (await jetstreamManager(nc)).streams.info(stream);
      await nc.close();
      return info.config.subjects;
    };
    const widened = await createNatsBus({
      servers: NATS_URL,
      name: 'bus-contract-test',
      stream,
      subjects: [`${prefix}.>`, `${prefix}_extra.>`],
      logger: silentLogger,
    });
    await widened.publishEvent(`${prefix}_extra.camera.updated`, 1);
    expect(await streamSubjects()).toEqual([`${prefix}.>`, `${prefix}_extra.>`]);
    await widened.close();

    await (await makeBus()).close();
    expect(await streamSubjects()).toEqual([`${prefix}.>`]);
  });

  it('createBus picks NATS when given a URL', async () => {
    const bus = await createBus({
      natsUrl: NATS_URL,
      name: 'bus-contract-test',
      logger: silentLogger,
      stream,
      subjects: [`${prefix}.>`],
    });
    expect(bus.kind).toBe('nats');
    await bus.close();
  });

  it('reconnects after the connection drops, and subscriptions and durable consumers resume', async () => {
    const proxy = await startProxy(new URL(NATS_URL));
    const bus = await makeBus(`nats://127.0.0.1:${proxy.port}`);
    const publisher = await makeBus();
    try {
      const plain: number[] = [];
      const events: number[] = [];
      await bus.subscribe<number>(`${prefix}.reconnect.plain`, (message) => void plain.push(message.data));
      await bus.consume<number>(
        (message) => {
          events.push(message.data);
          message.ack();
        },
        { durable: 'reconnect', filter: `${prefix}.reconnect.events`, ackWaitMs: 1_000 },
      );
      await publisher.publishEvent(`${prefix}.reconnect.events`, 1);
      await waitUntil(() => events.length === 1, 'the first event arrived');

      proxy.cut();
      await waitUntil(() => !bus.isConnected(), 'the bus noticed the drop');
      await publisher.publishEvent(`${prefix}.reconnect.events`, 2);
      await proxy.restore();
      await waitUntil(() => bus.isConnected(), 'the bus reconnected', 10_000);
      await waitUntil(() => events.includes(2), 'the event stored while away arrived', 10_000);
      await publisher.publish(`${prefix}.reconnect.plain`, 3);
      await waitUntil(() => plain.length === 1, 'the subscription resumed');

      // At least once: an ack lost in the drop legitimately brings event 1 back.
      expect(new Set(events)).toEqual(new Set([1, 2]));
      expect(plain).toEqual([3]);
    } finally {
      await Promise.all([bus.close(), publisher.close()]);
      await proxy.stop();
    }
  });
});

/** A TCP hop between client and server that the test can cut, to simulate a network drop. */
async function startProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 4222), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    cut() {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
    restore: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('nats bus with a namespace', () => {
  const namespace = `ns_${run}`;
  afterAll(async () => {
    const nc = await connect({ servers: NATS_URL });
    await (await jetstreamManager(nc)).streams.delete(`LAKECAMS_${namespace}`).catch(() => false);
    await nc.close();
  });

  it('keeps the domain subjects for callers but apart on the wire', async () => {
    const isolated = await createNatsBus({ servers: NATS_URL, name: 'bus-ns-test', namespace, logger: silentLogger });
    const other = await createNatsBus({
      servers: NATS_URL,
      name: 'bus-ns-test',
      namespace: `${namespace}_other`,
      logger: silentLogger,
    });
    try {
      const seen: string[] = [];
      const foreign: string[] = [];
      await isolated.consume(
        (message) => {
          seen.push(`${message.subject}:${message.data}`);
          message.ack();
        },
        { durable: 'ns-consumer', filter: 'webcam.camera.>' },
      );
      await other.subscribe('webcam.camera.upserted', (message) => {
        foreign.push(String(message.data));
      });
      await isolated.publishEvent('webcam.camera.upserted', 7);
      await waitUntil(() => seen.length === 1, 'the namespaced event arrives');
      expect(seen).toEqual(['webcam.camera.upserted:7']);
      await isolated.respond('lookup.thing', () => 'answer');
      expect(await isolated.request('lookup.thing', {})).toBe('answer');
      await expect(other.request('lookup.thing', {}, { timeoutMs: 300 })).rejects.toThrow();
      expect(foreign).toEqual([]);
      const nc = await connect({ servers: NATS_URL });
      const info = await (await jetstreamManager(nc)).streams.info(`LAKECAMS_${namespace}`);
      await nc.close();
      expect(info.config.subjects).toContain(`${namespace}.webcam.>`);
    } finally {
      await isolated.close();
      await other.close();
      const nc = await connect({ servers: NATS_URL });
      await (await jetstreamManager(nc)).streams.delete(`LAKECAMS_${namespace}_other`).catch(() => false);
      await nc.close();
    }
  });
});
