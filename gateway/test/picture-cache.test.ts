import { type Bus, createInProcessBus } from '@lakecams/bus';
import { SERVICES } from '@lakecams/contracts';
import { AccessApplied } from '@lakecams/contracts/messages';
import { createLogger } from '@lakecams/service-kit';
import Fastify, { type FastifyInstance } from 'fastify';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { buildGateway } from '../src/app.ts';
import {
  ACCESS_SETTLE_MS,
  GATEWAY_PICTURE_MAX_AGE_S,
  GatewayPictureCache,
  headersFromMemory,
  sharedLifetime,
} from '../src/picture-cache.ts';
import type { ServiceTarget, ServiceTargets } from '../src/service-targets.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A stand-in for svc-imaging's picture route: answers as told per file name, and counts what reaches it. */
async function pictureService() {
  const seen: string[] = [];
  const app = Fastify();
  app.get('/pictures/:camera/:file', async (request, reply) => {
    const { file } = request.params as { file: string };
    seen.push(request.url);
    const body = Buffer.from(`bytes of ${file} #${seen.length}`);
    reply.header('x-image-quality', 'POOR').type('image/jpeg');
    if (file.startsWith('public')) return reply.header('cache-control', IMMUTABLE).send(body);
    if (file.startsWith('signed')) return reply.header('cache-control', 'public, max-age=900, immutable').send(body);
    if (file.startsWith('private')) return reply.header('cache-control', 'private, max-age=60').send(body);
    if (file.startsWith('varies')) return reply.header('cache-control', IMMUTABLE).header('vary', 'Cookie').send(body);
    if (file.startsWith('cookie'))
      return reply.header('cache-control', IMMUTABLE).header('set-cookie', 'a=b').send(body);
    if (file.startsWith('moved')) return reply.redirect('/pictures/Ufer/public-b.jpg', 302);
    if (file.startsWith('tagged'))
      return request.headers['if-none-match'] === '"t"'
        ? reply.code(304).send()
        : reply.header('cache-control', IMMUTABLE).header('etag', '"t"').send(body);
    return reply.code(403).type('application/json').send({ status: 403, message: 'not signed for this level' });
  });
  await app.ready();
  return { app, seen };
}

async function gatewayFor(imaging: ServiceTarget, pictureCacheBytes: number, bus?: Bus) {
  const targets = Object.fromEntries(SERVICES.map((s) => [s, imaging])) as ServiceTargets;
  return buildGateway({
    logger: createLogger('silent'),
    targets,
    frontendRoot: tmpdir(),
    remotes: {},
    pictureCacheBytes,
    ...(bus ? { bus } : {}),
  });
}

/** A request as sent on the wire, path and all, which `inject` would first tidy up as a URL. */
function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    const request = httpRequest({ hostname, port, path, method: 'GET' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe("the gateway's memory of public pictures", () => {
  let service: Awaited<ReturnType<typeof pictureService>>;
  let gateway: FastifyInstance;
  let uncached: FastifyInstance;
  beforeAll(async () => {
    service = await pictureService();
    gateway = await gatewayFor({ kind: 'local', app: service.app }, 1024 * 1024);
    uncached = await gatewayFor({ kind: 'local', app: service.app }, 0);
  });
  afterAll(async () => {
    await gateway?.close();
    await uncached?.close();
    await service?.app.close();
  });
  beforeEach(() => {
    service.seen.length = 0;
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks the service once for a public picture and answers later requests from memory', async () => {
    const first = await gateway.inject({ url: '/pictures/Ufer/public-a.jpg' });
    const second = await gateway.inject({ url: '/pictures/Ufer/public-a.jpg' });
    expect(service.seen).toEqual(['/pictures/Ufer/public-a.jpg']);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe('image/jpeg');
    expect(second.headers['cache-control']).toMatch(/^public, max-age=315359\d\d, immutable$/);
    expect(second.headers['x-image-quality']).toBe('POOR');
    expect(second.headers['set-cookie']).toBeUndefined();
  });

  it('answers from memory with the max-age less the time it held the picture, so no later cache keeps it longer', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 10, 25, 8, 0, 0));
    const first = await gateway.inject({ url: '/pictures/Ufer/signed-held.jpg?e=1&s=x' });
    expect(first.headers['cache-control']).toBe('public, max-age=900, immutable');
    // 502.3 s later, as in the probe: an edge that ignores Age would have kept it 502 s past the link's expiry.
    vi.setSystemTime(Date.UTC(2026, 10, 25, 8, 8, 22, 300));
    const held = await gateway.inject({ url: '/pictures/Ufer/signed-held.jpg?e=1&s=x' });
    const kept = await gateway.inject({ url: '/pictures/Ufer/public-held.jpg' });
    vi.setSystemTime(Date.UTC(2026, 10, 25, 8, 9, 0));
    const publicHeld = await gateway.inject({ url: '/pictures/Ufer/public-held.jpg' });
    expect(service.seen).toEqual(['/pictures/Ufer/signed-held.jpg?e=1&s=x', '/pictures/Ufer/public-held.jpg']);
    expect(held.headers['cache-control']).toBe(`public, max-age=${900 - 503}, immutable`);
    expect(held.headers.age).toBeUndefined();
    expect([first.headers['x-gateway-cache'], held.headers['x-gateway-cache']]).toEqual([undefined, 'hit']);
    expect(kept.headers['cache-control']).toBe(IMMUTABLE);
    expect(publicHeld.headers['cache-control']).toBe(`public, max-age=${31_536_000 - 38}, immutable`);
  });

  it('answers 405 with Allow to any method but GET and HEAD on a picture', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const) {
      const answer = await gateway.inject({ method, url: '/pictures/Ufer/public-a.jpg', payload: 'x' });
      expect([method, answer.statusCode, answer.headers.allow]).toEqual([method, 405, 'GET, HEAD']);
      expect(answer.json()).toEqual({
        statusCode: 405,
        error: 'Method Not Allowed',
        message: `${method} is not allowed on /pictures/Ufer/public-a.jpg; it takes GET, HEAD`,
      });
    }
    expect(service.seen).toEqual([]);
  });

  it('refuses a picture URL that the way on to the service would rewrite, so a cache never keys on an alias', async () => {
    const listening = await gatewayFor({ kind: 'local', app: service.app }, 1024 * 1024);
    onTestFinished(() => listening.close());
    const base = await listening.listen({ host: '127.0.0.1', port: 0 });
    for (const path of [
      '/pictures/Ufer/../Ufer/public-a.jpg',
      '/pictures/Ufer/./public-a.jpg',
      '/pictures/Ufer\\public-a.jpg',
      '/pictures/Ufer/public"a.jpg',
    ]) {
      const answer = await rawGet(base, path);
      expect([path, answer.status]).toEqual([path, 404]);
    }
    expect(service.seen).toEqual([]);
  });

  it('keeps a signed link apart from any other URL, the query included', async () => {
    await gateway.inject({ url: '/pictures/Ufer/signed-a.jpg?e=1&s=x' });
    await gateway.inject({ url: '/pictures/Ufer/signed-a.jpg?e=1&s=x' });
    await gateway.inject({ url: '/pictures/Ufer/signed-a.jpg?e=1&s=y' });
    expect(service.seen).toEqual(['/pictures/Ufer/signed-a.jpg?e=1&s=x', '/pictures/Ufer/signed-a.jpg?e=1&s=y']);
  });

  it('passes on, and never keeps, refusals, redirects and whatever is private, varies or sets a cookie', async () => {
    for (const file of ['private-a.jpg', 'varies-a.jpg', 'cookie-a.jpg', 'moved-a.jpg', 'refused-a.jpg']) {
      const url = `/pictures/Ufer/${file}`;
      const answers = [await gateway.inject({ url }), await gateway.inject({ url })];
      expect(service.seen.filter((u) => u === url)).toHaveLength(2);
      expect(answers[1]?.headers.age).toBeUndefined();
      if (file.startsWith('moved')) expect(answers[1]?.headers.location).toBe('/pictures/Ufer/public-b.jpg');
      if (file.startsWith('refused'))
        expect([answers[1]?.statusCode, answers[1]?.json().message]).toEqual([403, 'not signed for this level']);
    }
  });

  it('asks the service once however many requests for a picture arrive together', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => gateway.inject({ url: '/pictures/Ufer/public-together.jpg' })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(service.seen).toEqual(['/pictures/Ufer/public-together.jpg']);
  });

  it('lets conditional requests, HEAD and impersonation through to the service', async () => {
    await gateway.inject({ url: '/pictures/Ufer/tagged-a.jpg' });
    const revalidated = await gateway.inject({
      url: '/pictures/Ufer/tagged-a.jpg',
      headers: { 'if-none-match': '"t"' },
    });
    expect(revalidated.statusCode).toBe(304);
    const head = await gateway.inject({ method: 'HEAD', url: '/pictures/Ufer/tagged-a.jpg' });
    expect(head.statusCode).toBe(200);
    // The service decides who may act as somebody else, before any route.
    await gateway.inject({ url: '/pictures/Ufer/tagged-a.jpg', headers: { impersonate: 'someone' } });
    expect(service.seen).toHaveLength(4);
  });

  it('keeps nothing when its size is 0', async () => {
    await uncached.inject({ url: '/pictures/Ufer/public-c.jpg' });
    await uncached.inject({ url: '/pictures/Ufer/public-c.jpg' });
    expect(service.seen).toHaveLength(2);
  });

  it('does the same for a service in another process, and says so when it cannot be reached', async () => {
    const remoteService = await pictureService();
    const url = await remoteService.app.listen({ host: '127.0.0.1', port: 0 });
    const remote = await gatewayFor({ kind: 'remote', urls: [url] }, 1024 * 1024);
    const unreachable = await gatewayFor({ kind: 'remote', urls: ['http://127.0.0.1:9'] }, 1024 * 1024);
    try {
      const answers = [
        await remote.inject({ url: '/pictures/Ufer/public-a.jpg' }),
        await remote.inject({ url: '/pictures/Ufer/public-a.jpg' }),
      ];
      expect(answers.map((a) => [a.statusCode, a.headers['content-type']])).toEqual([
        [200, 'image/jpeg'],
        [200, 'image/jpeg'],
      ]);
      expect(remoteService.seen).toEqual(['/pictures/Ufer/public-a.jpg']);
      const refused = await remote.inject({ url: '/pictures/Ufer/refused-a.jpg' });
      expect(refused.statusCode).toBe(403);
      const down = await unreachable.inject({ url: '/pictures/Ufer/public-a.jpg' });
      expect([down.statusCode, down.json().message]).toEqual([
        503,
        'Service imaging is unavailable, please retry shortly',
      ]);
    } finally {
      await remote.close();
      await unreachable.close();
      await remoteService.app.close();
    }
  });
});

describe("a camera's pictures forgotten when its access changes", () => {
  it('forgets them at once when svc-imaging says so, and keeps none asked for under the old access', async () => {
    const service = await pictureService();
    const bus = createInProcessBus();
    const gateway = await gatewayFor({ kind: 'local', app: service.app }, 1024 * 1024, bus);
    onTestFinished(async () => {
      await gateway.close();
      await bus.close();
      await service.app.close();
    });
    const url = '/pictures/Ufer/public-low.jpg';
    const other = '/pictures/Hafen/public-low.jpg';
    for (const u of [url, url, other]) await gateway.inject({ url: u });
    expect(service.seen).toEqual([url, other]);
    await bus.publish(AccessApplied.subject, { webcamId: 1, camera: 'Ufer' });
    await vi.waitUntil(async () => {
      await gateway.inject({ url });
      return service.seen.filter((u) => u === url).length > 1;
    });
    // Only that camera's pictures go.
    await gateway.inject({ url: other });
    expect(service.seen.filter((u) => u === other)).toHaveLength(1);
  });

  it('keeps no answer that was under way, or asked for shortly after, when the access changed', () => {
    const cache = new GatewayPictureCache(1000);
    const answer = { statusCode: 200, headers: {}, body: Buffer.alloc(10) };
    const headers = { 'cache-control': 'public, max-age=900, immutable' };
    cache.offer('/pictures/Ufer/a.jpg', answer, headers, 0);
    cache.forgetCamera('Ufer', 100);
    expect(cache.get('/pictures/Ufer/a.jpg', 101)).toBeUndefined();
    expect(cache.bytes).toBe(0);
    // Asked at 50, answered at 150: decided under the old access.
    expect(cache.offer('/pictures/Ufer/b.jpg', answer, headers, 150, 50)).toBe(false);
    // An imaging replica may still hold the old access for a few seconds.
    expect(cache.offer('/pictures/Ufer/c.jpg', answer, headers, 200, 200)).toBe(false);
    expect(cache.offer('/pictures/Ufer/d.jpg', answer, headers, 100 + ACCESS_SETTLE_MS + 1)).toBe(true);
    expect(cache.offer('/pictures/Hafen/a.jpg', answer, headers, 150, 50)).toBe(true);
  });
});

describe('GatewayPictureCache', () => {
  it('lowers only the max-age, by whole seconds held', () => {
    const entry = {
      statusCode: 200,
      headers: { 'cache-control': 'public, max-age=600, immutable', etag: '"x"' },
      body: Buffer.alloc(1),
      storedAt: 1000,
      expiresAt: 601_000,
    };
    expect(headersFromMemory(entry, 1000)).toEqual(entry.headers);
    expect(headersFromMemory(entry, 1001)['cache-control']).toBe('public, max-age=599, immutable');
    expect(headersFromMemory(entry, 600_999)).toEqual({
      ...entry.headers,
      'cache-control': 'public, max-age=0, immutable',
    });
  });

  const answer = (bytes: number) => ({ statusCode: 200, headers: {}, body: Buffer.alloc(bytes) });
  const headers = { 'cache-control': 'public, max-age=900, immutable' };

  it('honours max-age up to its own limit', () => {
    expect(sharedLifetime(200, headers)).toBe(GATEWAY_PICTURE_MAX_AGE_S);
    expect(sharedLifetime(200, { 'cache-control': 'public, max-age=30' })).toBe(30);
    expect(sharedLifetime(200, { 'cache-control': 'public, max-age=0' })).toBeNull();
    expect(sharedLifetime(200, { 'cache-control': 'max-age=600' })).toBeNull();
    expect(sharedLifetime(200, { 'cache-control': 'public, no-store, max-age=600' })).toBeNull();
    expect(sharedLifetime(404, headers)).toBeNull();

    const cache = new GatewayPictureCache(1000);
    cache.offer('/p/a', answer(10), { 'cache-control': 'public, max-age=30' }, 0);
    expect(cache.get('/p/a', 29_999)).toBeDefined();
    expect(cache.get('/p/a', 30_000)).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it('lets the least recently used pictures go once over its size, and keeps none larger than it', () => {
    const cache = new GatewayPictureCache(300);
    for (const name of ['a', 'b', 'c']) cache.offer(`/p/${name}`, answer(100), headers, 0);
    cache.get('/p/a', 1);
    cache.offer('/p/d', answer(100), headers, 2);
    expect(['a', 'b', 'c', 'd'].map((n) => cache.get(`/p/${n}`, 3) !== undefined)).toEqual([true, false, true, true]);
    expect(cache.offer('/p/e', answer(301), headers, 4)).toBe(false);
    expect(cache.bytes).toBe(300);
  });
});
