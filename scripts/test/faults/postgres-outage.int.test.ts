import { createInProcessBus } from '@lakecams/bus';
import { buildServiceApp, createLogger, generateSigningKeys, type ServiceApp } from '@lakecams/service-kit';
import { createTestDatabase } from '@lakecams/service-kit/testing';
import { webcamService } from '@lakecams/svc-webcam';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** A TCP proxy in front of PostgreSQL that the test can cut and restore. */
function databaseProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let down = false;
  const server: Server = createServer((client) => {
    if (down) return client.destroy();
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  return {
    async listen(): Promise<number> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.address() as { port: number }).port;
    },
    cut() {
      down = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      down = false;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe('PostgreSQL unreachable for one service: fast 503 with a clear message, recovery without restart', () => {
  const bus = createInProcessBus();
  const proxy = databaseProxy({ host: '127.0.0.1', port: 5432 });
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let webcam: ServiceApp;

  beforeAll(async () => {
    database = await createTestDatabase('webcam');
    const port = await proxy.listen();
    const viaProxy = new URL(database.url);
    viaProxy.host = `127.0.0.1:${port}`;
    webcam = await buildServiceApp(webcamService, {
      bus,
      logger: createLogger('silent'),
      databaseUrl: viaProxy.toString(),
      jwtPublicKey: generateSigningKeys().publicKey,
      options: {},
    });
  });

  afterAll(async () => {
    proxy.restore();
    await webcam?.close();
    await bus.close();
    await proxy.close();
    await database?.drop();
  });

  it('answers normally while the database is reachable', async () => {
    expect((await webcam.inject({ url: '/api/Webcam/GetCameras' })).statusCode).toBe(200);
    expect((await webcam.inject({ url: '/ready' })).statusCode).toBe(200);
  });

  it('fails fast with 503 while the database is cut off, and is not ready', async () => {
    proxy.cut();
    for (const url of ['/api/Webcam/GetCameras', '/api/Webcam/GetImages', '/api/News/News/news']) {
      const started = performance.now();
      const response = await webcam.inject({ url });
      const tookMs = performance.now() - started;
      expect(response.statusCode, url).toBe(503);
      expect(response.json()).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: 'Database unavailable, please retry shortly',
      });
      // Bounded by the pool's connection timeout (3 s), never a hanging request.
      expect(tookMs, `${url} answered in ${Math.round(tookMs)} ms`).toBeLessThan(5_000);
    }
    expect((await webcam.inject({ url: '/ready' })).statusCode).toBe(503);
    // Liveness stays up: restarting the process would not help.
    expect((await webcam.inject({ url: '/health' })).statusCode).toBe(200);
  });

  it('recovers by itself once the database is reachable again', async () => {
    proxy.restore();
    await expect
      .poll(async () => (await webcam.inject({ url: '/api/Webcam/GetCameras' })).statusCode, { timeout: 15_000 })
      .toBe(200);
    expect((await webcam.inject({ url: '/ready' })).statusCode).toBe(200);
    console.log('faults survived: PostgreSQL cut off and restored for svc-webcam, no restart');
  });
});
