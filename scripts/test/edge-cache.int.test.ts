import { AccessChanged, CameraUpserted } from '@lakecams/contracts/messages';
import { type Bus, createNatsBus } from '@lakecams/bus';
import { ACCESS_COOKIE, imageNameOf } from '@lakecams/contracts';
import { buildGateway } from '@lakecams/gateway';
import { buildServiceApp, createLogger, generateSigningKeys, type ServiceApp } from '@lakecams/service-kit';
import { createTestDatabase, freePort, TEST_NATS_URL } from '@lakecams/service-kit/testing';
import { imagingService } from '@lakecams/svc-imaging';
import { captureTick, imagingPartsOf } from '@lakecams/svc-imaging/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSigner } from 'fast-jwt';
import sharp from 'sharp';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const NGINX = '/usr/sbin/nginx';
const TEMPLATE = new URL('../../deploy/k8s/base/edge/edge.conf.template', import.meta.url);
const PARTNER = 'https://partner.example/seesicht';
const FAN = '77777777-7777-4777-8777-777777777777';
/** Signed in, without a configuration of its own: one of "all other users". */
const MEMBER = '99999999-9999-4999-8999-999999999999';
const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const today = imageNameOf(new Date());
const isoDay = (offset: number) =>
  new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(4, 6)) - 1, Number(today.slice(6, 8)) + offset))
    .toISOString()
    .slice(0, 10);

interface Answer {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** A picture as a browser got it: the entitlement's redirect, then the picture at the name it gave. */
interface Visit {
  entitlement: Answer;
  location: string;
  answer: Answer;
  width: number | undefined;
  cache: string | null;
}

interface EdgePortal {
  edge: string;
  origin: string;
  gateway: FastifyInstance | undefined;
  gatewayBus: Bus | undefined;
  nginx: ChildProcess | undefined;
  database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  readonly bus: Bus;
  readonly replicas: { app: ServiceApp; bus: Bus }[];
  get(path: string, headers?: Record<string, string>, base?: string): Promise<Answer>;
  picture(camera: string, headers?: Record<string, string>): Promise<Visit>;
  capture(camera: string, at: Date, color: string): Promise<void>;
  addCamera(id: number, name: string): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The edge cache of deploy/edge in front of the distributed portal: a real nginx (Debian's package) before the
 * gateway (its picture memory on, on the bus), which proxies to svc-imaging replicas over HTTP, the replicas
 * coordinating over NATS. `windowSeconds`: the signed links' window (a link lives one to two).
 */
function edgePortal(setup: { replicas: string[]; windowSeconds?: number }) {
  const namespace = `edge_${randomBytes(4).toString('hex')}`;
  const scratch = join(tmpdir(), `lakecams-edge-${namespace}`);
  const logger = createLogger('silent');
  const replicas: { app: ServiceApp; bus: Bus }[] = [];
  const portal: EdgePortal = {
    /** The edge's address… */
    edge: '',
    /** …and the gateway's, behind it. */
    origin: '',
    gateway: undefined,
    gatewayBus: undefined,
    nginx: undefined,
    database: undefined,
    get bus(): Bus {
      return replicas[0]?.bus as Bus;
    },
    get replicas(): { app: ServiceApp; bus: Bus }[] {
      return replicas;
    },

    async get(path: string, headers: Record<string, string> = {}, base: string = portal.edge): Promise<Answer> {
      const response = await fetch(new URL(path, base), { headers, redirect: 'manual' });
      return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
    },

    /** As a browser's <img>: the entitlement URL, then the picture its redirect names, with no cookie. */
    async picture(camera: string, headers: Record<string, string> = {}): Promise<Visit> {
      const entitlement = await portal.get(`/api/Image/Get/camera/${camera}.jpg`, headers);
      expect(entitlement.status, entitlement.bytes.toString()).toBe(302);
      const location = String(entitlement.headers.get('location'));
      const accept: Record<string, string> = headers.accept ? { accept: headers.accept } : {};
      const answer = await portal.get(location, accept);
      expect(answer.status, location).toBe(200);
      const width = (await sharp(answer.bytes).metadata()).width;
      return { entitlement, location, answer, width, cache: answer.headers.get('x-cache-status') };
    },

    async capture(camera: string, at: Date, color: string): Promise<void> {
      const bytes = await sharp({ create: { width: 2560, height: 1440, channels: 3, background: color } })
        .jpeg()
        .toBuffer();
      const app = replicas[0]?.app as ServiceApp;
      const row = await vi.waitUntil(() => imagingPartsOf(app).cameraDirectory.byName(camera), {
        timeout: 30_000,
        interval: 50,
      });
      await captureTick({ ...imagingPartsOf(app).capture.context, source: async () => bytes }, row, at);
    },

    async addCamera(id: number, name: string): Promise<void> {
      await portal.bus.publishEvent(CameraUpserted.subject, {
        id,
        name,
        pattern: 'http://127.0.0.1:9/x.jpg',
        intervalMin: 5,
        distance: 5,
        angle: 60,
        webcamType: 'STATIC',
      });
    },

    async start(): Promise<void> {
      await mkdir(join(scratch, 'cache'), { recursive: true });
      portal.database = await createTestDatabase('imaging');
      const secret = randomBytes(32).toString('hex');
      for (const replica of setup.replicas) {
        const bus = await createNatsBus({ servers: TEST_NATS_URL, name: `edge-${replica}`, namespace, logger });
        const app = await buildServiceApp(imagingService, {
          bus,
          logger,
          databaseUrl: portal.database.url,
          jwtPublicKey: keys.publicKey,
          options: {
            storeDir: join(scratch, 'images'),
            schedule: false,
            replicaId: replica,
            pictureLinks: { secret, ...(setup.windowSeconds ? { windowSeconds: setup.windowSeconds } : {}) },
          },
        });
        replicas.push({ app, bus });
      }
      const urls = await Promise.all(replicas.map(({ app }) => app.listen({ host: '127.0.0.1', port: 0 })));
      const unused = { kind: 'remote' as const, urls: ['http://127.0.0.1:9'] };
      portal.gatewayBus = await createNatsBus({ servers: TEST_NATS_URL, name: 'edge-gateway', namespace, logger });
      portal.gateway = await buildGateway({
        logger,
        targets: { identity: unused, webcam: unused, referer: unused, imaging: { kind: 'remote', urls } },
        frontendRoot: scratch,
        remotes: {},
        bus: portal.gatewayBus,
        pictureCacheBytes: 16 * 1024 * 1024,
      });
      portal.origin = await portal.gateway.listen({ host: '127.0.0.1', port: 0 });
      const port = await freePort();
      const snippet = (await readFile(TEMPLATE, 'utf8'))
        .replaceAll('${EDGE_CACHE_DIR}', join(scratch, 'cache'))
        .replaceAll('${EDGE_CACHE_MAX_SIZE}', '256m')
        .replaceAll('${EDGE_ORIGIN}', new URL(portal.origin).host)
        .replaceAll('${EDGE_PORT}', `127.0.0.1:${port}`);
      const temp = (name: string) => `${name}_temp_path ${join(scratch, name)};`;
      await writeFile(
        join(scratch, 'nginx.conf'),
        `daemon off;\nworker_processes 1;\npid ${join(scratch, 'nginx.pid')};\nerror_log ${join(scratch, 'error.log')} warn;\n` +
          `events { worker_connections 256; }\nhttp {\naccess_log off;\n` +
          ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n') +
          `\n${snippet}\n}\n`,
      );
      portal.nginx = spawn(NGINX, ['-c', join(scratch, 'nginx.conf'), '-p', scratch], { stdio: 'ignore' });
      portal.edge = `http://127.0.0.1:${port}`;
      await vi.waitUntil(async () => (await fetch(`${portal.edge}/health`).catch(() => null))?.ok, {
        timeout: 30_000,
        interval: 100,
      });
    },

    async stop(): Promise<void> {
      const { nginx } = portal;
      if (nginx && nginx.exitCode === null) {
        const stopped = new Promise((resolve) => nginx.once('exit', resolve));
        nginx.kill('SIGQUIT');
        await stopped;
      }
      await portal.gateway?.close();
      await portal.gatewayBus?.close();
      for (const { app, bus } of replicas.reverse()) {
        await app.close();
        await bus.close();
      }
      await portal.database?.drop();
      const nc = await connect({ servers: TEST_NATS_URL });
      await (await jetstreamManager(nc)).streams.delete(`LAKECAMS_${namespace}`).catch(() => false);
      await nc.close();
      await rm(scratch, { recursive: true, force: true });
    },
  };
  return portal;
}

describe.skipIf(!existsSync(NGINX))('the edge cache in front of the distributed portal', () => {
  const portal = edgePortal({ replicas: ['a', 'b'] });
  const { get, picture, capture } = portal;

  beforeAll(async () => {
    await portal.start();
    for (const [id, name] of [
      [1, 'Seesicht'],
      [2, 'Hafen'],
    ] as const)
      await portal.addCamera(id, name);
    await portal.bus.publishEvent(AccessChanged.subject, {
      webcamId: 1,
      permittedUserIds: [],
      configurations: [
        { userId: null, quality: 'LOW' },
        { userId: FAN, quality: 'FULL' },
      ],
      bookings: [{ url: PARTNER, start: isoDay(-1), end: isoDay(1), quality: 'HIGH' }],
    });
    await capture('Seesicht', new Date(Date.now() - 5 * 60_000), '#4a90d9');
    await capture('Hafen', new Date(Date.now() - 5 * 60_000), '#2d6a4f');
    // Both replicas know the access rules before the first request.
    for (const { app } of portal.replicas)
      await vi.waitUntil(
        async () => (await imagingPartsOf(app).deliveryStates.of('Seesicht'))?.access?.bookings.length === 1,
        {
          timeout: 30_000,
          interval: 50,
        },
      );
  }, 120_000);

  afterAll(() => portal.stop());

  it('serves anonymous visitors from the cache: the origin sees one request per camera, capture and level', async () => {
    const answers = [];
    for (let visit = 0; visit < 40; visit += 1) answers.push(await picture(visit % 2 ? 'Hafen' : 'Seesicht'));
    const pictures = answers.map((a) => a.cache);
    const hits = pictures.filter((status) => status === 'HIT').length;
    // Two cameras, one capture each, one level each: two misses, the rest from the cache.
    expect(pictures.filter((status) => status === 'MISS')).toHaveLength(2);
    expect(hits / pictures.length).toBeGreaterThanOrEqual(0.95);
    // The setting for all other users is for signed-in users: anonymous visitors get POOR of both cameras.
    expect(answers.map((a) => a.width)).toEqual(answers.map(() => 480));
    // The entitlement answers are private: never stored, never shared.
    expect(answers.every((a) => a.entitlement.headers.get('x-cache-status') !== 'HIT')).toBe(true);
    expect(answers[0]?.entitlement.headers.get('cache-control')).toMatch(/^private/);
    expect(answers[0]?.answer.headers.get('set-cookie')).toBeNull();
  });

  it('gives a booked partner page, a configured user and a Premium user each their own level, never a cached one of another', async () => {
    const anonymous = await picture('Seesicht');
    const partner = [];
    for (let visit = 0; visit < 20; visit += 1)
      partner.push(await picture('Seesicht', { referer: `${PARTNER}/heute` }));
    expect(partner.map((p) => p.width)).toEqual(partner.map(() => 1920));
    // Every visitor of the page in the link's window shares one signed, cached copy.
    expect(new Set(partner.map((p) => p.location)).size).toBe(1);
    expect(partner.filter((p) => p.cache === 'HIT').length / partner.length).toBeGreaterThanOrEqual(0.95);

    const fan = await picture('Seesicht', { cookie: `${ACCESS_COOKIE}=${sign({ sub: FAN, role: [] })}` });
    const premium = await picture('Seesicht', {
      authorization: `Bearer ${sign({ sub: '88888888-8888-4888-8888-888888888888', role: ['Premium'] })}`,
    });
    expect([anonymous.width, fan.width, premium.width]).toEqual([480, 2560, 1280]);
    expect(new Set([anonymous.location, fan.location, premium.location, partner[0]?.location]).size).toBe(4);

    // The other way round: after all of them, an anonymous visitor still gets the public level.
    expect((await picture('Seesicht')).width).toBe(480);
    // A higher level's name without its signature is refused, not answered from the cache.
    const unsigned = await get(String(fan.location).split('?')[0] as string);
    expect([unsigned.status, unsigned.headers.get('x-cache-status')]).toEqual([403, 'MISS']);
    const tampered = await get(String(partner[0]?.location).replace(/s=[\w-]+/, `s=${'A'.repeat(32)}`));
    expect(tampered.status).toBe(403);
  });

  it('keeps AVIF and WebP apart from JPEG by their names, each cached once', async () => {
    const jpeg = await picture('Hafen', { accept: 'image/jpeg,*/*;q=0.8' });
    const avif = await picture('Hafen', { accept: 'image/avif,image/webp,*/*;q=0.8' });
    const webp = await picture('Hafen', { accept: 'image/webp,*/*;q=0.8' });
    expect([jpeg.location, avif.location, webp.location].map((l) => String(l).split('.').at(-1))).toEqual([
      'jpg',
      'avif',
      'webp',
    ]);
    expect(avif.answer.headers.get('content-type')).toBe('image/avif');
    expect((await picture('Hafen', { accept: 'image/avif,*/*;q=0.8' })).cache).toBe('HIT');
  });

  it('shows a new capture through the cache as soon as it is stored', async () => {
    const before = await picture('Hafen');
    await capture('Hafen', new Date(), '#d62828');
    // The entitlement URL is never cached: its next answer names the new capture.
    await vi.waitUntil(
      async () =>
        (await get('/api/Image/Get/camera/Hafen.jpg')).headers.get('x-image-name') !==
        before.entitlement.headers.get('x-image-name'),
      { timeout: 30_000, interval: 100 },
    );
    const after = await picture('Hafen');
    expect(after.location).not.toBe(before.location);
    const { dominant } = await sharp(after.answer.bytes).stats();
    expect(dominant.r).toBeGreaterThan(dominant.b);
  });
});

/** Seconds of `max-age` in a Cache-Control header, or NaN. */
const maxAgeOf = (answer: Answer) => Number(/max-age=(\d+)/.exec(answer.headers.get('cache-control') ?? '')?.[1]);
const sleepUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

describe.skipIf(!existsSync(NGINX))(
  'links past their expiry, and levels above the public one, at the edge and the gateway',
  () => {
    // Links live 6 to 12 s instead of 10 to 20 minutes.
    const WINDOW_S = 6;
    /** How long the gateway holds a picture before the edge first asks for it (the probe saw 502 s). */
    const HELD_MS = 3000;
    const portal = edgePortal({ replicas: ['c'], windowSeconds: WINDOW_S });
    const fan = { cookie: `${ACCESS_COOKIE}=${sign({ sub: FAN, role: [] })}` };

    beforeAll(async () => {
      await portal.start();
      await portal.addCamera(3, 'Steg');
      await portal.bus.publishEvent(AccessChanged.subject, {
        webcamId: 3,
        permittedUserIds: [],
        configurations: [
          { userId: null, quality: 'LOW' },
          { userId: FAN, quality: 'FULL' },
        ],
        bookings: [],
      });
      await portal.capture('Steg', new Date(Date.now() - 5 * 60_000), '#8ecae6');
      // The gateway keeps no picture of a camera for a few seconds after its access changed: until it does again.
      const member = { cookie: `${ACCESS_COOKIE}=${sign({ sub: MEMBER, role: [] })}` };
      await vi.waitUntil(
        async () =>
          String((await portal.get('/api/Image/Get/camera/Steg.jpg', member)).headers.get('location')).includes(
            '-LOW-',
          ),
        { timeout: 30_000, interval: 50 },
      );
      const poor = String((await portal.get('/api/Image/Get/camera/Steg.jpg')).headers.get('location'));
      await vi.waitUntil(
        async () => (await portal.get(poor, {}, portal.origin)).headers.get('x-gateway-cache') === 'hit',
        { timeout: 30_000, interval: 200 },
      );
    }, 120_000);

    afterAll(() => portal.stop());

    it('refuses a signed link at the edge once past its expiry, though the gateway had held the picture', async () => {
      const tried = new Set<string>();
      // Waiting longer is always safe; a link that a busy machine let run short is replaced by the next one.
      for (let attempt = 0; attempt < 8; attempt += 1) {
        const location = String((await portal.get('/api/Image/Get/camera/Steg.jpg', fan)).headers.get('location'));
        const expires = Number(/[?&]e=(\d+)/.exec(location)?.[1]) * 1000;
        if (tried.has(location) || expires - Date.now() < HELD_MS + 2000) {
          tried.add(location);
          // The next window's link.
          await sleepUntil(expires - WINDOW_S * 1000 + 100);
          continue;
        }
        tried.add(location);
        expect(location).toContain('-FULL-');
        // Into the gateway's memory, straight from the origin.
        const kept = await portal.get(location, {}, portal.origin);
        if (kept.status === 403 && Date.now() >= expires) continue;
        expect(kept.status).toBe(200);
        const keptAt = Date.now();
        expect((await portal.get(location, {}, portal.origin)).headers.get('x-gateway-cache')).toBe('hit');
        await sleepUntil(keptAt + HELD_MS);
        if (expires - Date.now() < 1000) continue;
        const askedAt = Date.now();
        const atEdge = await portal.get(location);
        if (atEdge.status === 403 && Date.now() >= expires) continue;
        expect([atEdge.status, atEdge.headers.get('x-gateway-cache')]).toEqual([200, 'hit']);
        // From the gateway's memory: what is left of the link's life, not what it had when the gateway got it.
        expect(Math.floor(askedAt / 1000) + maxAgeOf(atEdge)).toBeLessThanOrEqual(expires / 1000);
        expect(atEdge.headers.get('age')).toBeNull();
        // nginx counts whole seconds: a second after the expiry its copy is stale, and the origin refuses the link.
        await sleepUntil(expires + 1500);
        const expired = await portal.get(location);
        expect([expired.status, expired.headers.get('x-cache-status')]).not.toContain('HIT');
        expect(expired.status).toBe(403);
        return;
      }
      throw new Error('No signed link lived long enough to be held by the gateway; the machine is too busy');
    }, 120_000);

    it('never makes a level above POOR public: the setting for all other users reaches signed-in users by signed links', async () => {
      const entitlement = async (headers: Record<string, string> = {}) =>
        String((await portal.get('/api/Image/Get/camera/Steg.jpg', headers)).headers.get('location'));
      expect(await entitlement()).toContain('-POOR-');
      const low = await entitlement({ cookie: `${ACCESS_COOKIE}=${sign({ sub: MEMBER, role: [] })}` });
      expect(low).toMatch(/-LOW-.*\?e=\d+&s=/);
      const atEdge = await portal.get(low);
      expect(atEdge.status).toBe(200);
      // Its name without the signature opens nothing, at the edge or the gateway.
      const unsigned = low.split('?')[0] as string;
      const refused = await portal.get(unsigned);
      expect([refused.status, refused.headers.get('x-cache-status')]).toEqual([403, 'MISS']);
      expect((await portal.get(unsigned, {}, portal.origin)).status).toBe(403);
    });
  },
);
