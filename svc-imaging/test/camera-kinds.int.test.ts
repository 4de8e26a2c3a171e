import { type CameraSource, imageNameOf } from '@lakecams/contracts';
import { ADMIN_ROLE, generateSigningKeys } from '@lakecams/service-kit';
import { Client } from 'basic-ftp';
import { createSigner } from 'fast-jwt';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildImagingService, imagingPartsOf, type ImagingTestService } from '../src/testing.ts';
import {
  recordHls,
  startBasicCamera,
  startDigestCamera,
  startHlsCamera,
  startMjpegCamera,
  startRtspCamera,
} from './camera-servers.ts';
import { getPicture } from './pictures.ts';

// Each kind of camera source end to end, with real protocol servers: set up through the admin API, captured
// ("capture now") or pushed, seen at the anonymous and the signed-in level, judged offline when it stops
// delivering and ok again when it resumes. No waiting: the service's clock is moved.

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const admin = { authorization: `Bearer ${sign({ sub: '11111111-1111-4111-8111-111111111111', role: [ADMIN_ROLE] })}` };
/** Signed in, nothing configured for the camera: the signed-in floor, LOW. */
const viewer = { authorization: `Bearer ${sign({ sub: '22222222-2222-4222-8222-222222222222', role: [] })}` };
const LOGIN = { username: 'seewart', password: 'Ufer-Pw:93517/ä' };
const INTERVAL_MIN = 5;
const WIDTH = 960;

/** The service's clock, moved by the tests, from the start of the current interval on. */
const START = Math.floor(Date.now() / (INTERVAL_MIN * 60_000)) * INTERVAL_MIN * 60_000;
let now = START;

/** Each kind's own half hour on the service's clock: `at(m)` is its minute m, `moveTo(m)` sets the clock there. */
function timeline(kind: number) {
  const at = (minute: number) => new Date(START + (kind * 30 + minute) * 60_000);
  return {
    at,
    moveTo(minute: number) {
      now = at(minute).getTime();
      return at(minute);
    },
  };
}

interface Running {
  port: number;
  url: string;
  close(): Promise<unknown>;
}

/** What the admin's source dialog sends. */
interface Source {
  kind: CameraSource['kind'];
  transport?: CameraSource['transport'];
  username?: string;
  password?: string;
}

interface Health {
  state: 'ok' | 'late' | 'failing' | 'offline';
  since: string | null;
  reason: string | null;
}

const OK: Health = { state: 'ok', since: null, reason: null };

describe('every kind of camera source: configured, captured, seen, offline when it stops, back when it resumes', () => {
  let service: ImagingTestService;
  let ftpPort: number;
  let workDir: string;
  let tls: { key: string; cert: string };
  /** Two pictures a camera delivers, one before it stops and another after (the same twice would be frozen). */
  let pictures: [Buffer, Buffer];
  /** Two HLS recordings, of other test patterns, for the same reason. */
  let hlsDirs: [string, string];
  const logged: string[] = [];
  const running = new Set<Running>();

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'lakecams-camera-kinds-'));
    hlsDirs = [join(workDir, 'hls-a'), join(workDir, 'hls-b')];
    const picture = (background: string) =>
      sharp({ create: { width: WIDTH, height: 540, channels: 3, background } })
        .jpeg()
        .toBuffer();
    const made = Promise.all([picture('#2f6f8f'), picture('#8f6f2f')]);
    await Promise.all([
      made,
      promisify(execFile)('openssl', [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2'],
        ...['-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
        ...['-keyout', join(workDir, 'key.pem'), '-out', join(workDir, 'cert.pem')],
      ]),
      ...hlsDirs.map(async (dir, i) => {
        await mkdir(dir);
        await recordHls(dir, `${i === 0 ? 'testsrc' : 'smptebars'}=size=${WIDTH}x540:rate=10`);
      }),
    ]);
    pictures = await made;
    tls = {
      key: await readFile(join(workDir, 'key.pem'), 'utf8'),
      cert: await readFile(join(workDir, 'cert.pem'), 'utf8'),
    };
    service = await buildImagingService({
      keys,
      logger: pino({ level: 'info' }, { write: (line: string) => logged.push(line) }),
      options: {
        clock: () => new Date(now),
        fetchLimits: { timeoutMs: 8_000, maxBytes: 5 * 1024 * 1024, retries: 0 },
        cameraSecretKey: 'test-camera-secret-key-0123456789',
        ftp: { host: '127.0.0.1', port: 0, passivePorts: { min: 0, max: 0 }, tls },
      },
    });
    ftpPort = imagingPartsOf(service.app).ftp.port() as number;
  }, 120_000);

  afterEach(async () => {
    await Promise.all([...running].map((server) => server.close()));
    running.clear();
  });

  afterAll(async () => {
    await service?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  /** A camera server the test closes afterwards, whatever happens. */
  const keep = <T extends Running>(server: T): T => {
    running.add(server);
    return server;
  };
  const stop = async (server: Running) => {
    running.delete(server);
    await server.close();
  };

  /** The camera as svc-webcam announces it (its URL), its source as the admin's dialog saves it. */
  async function configure(webcamId: number, name: string, pattern: string, source: Source) {
    await service.upsertCamera({ id: webcamId, name, pattern, intervalMin: INTERVAL_MIN });
    const saved = await service.app.inject({
      method: 'PUT',
      url: `/api/Image/Source?webcamId=${webcamId}`,
      headers: admin,
      payload: source,
    });
    expect(saved.statusCode).toBe(200);
    const { password, ...shown } = source;
    expect(saved.json<CameraSource>()).toMatchObject({ ...shown, passwordSet: password !== undefined });
    if (password) expect(saved.body).not.toContain(password);
  }

  /** "Capture now" on the job dashboard, at the service's clock. */
  async function captureNow(webcamId: number) {
    const response = await service.app.inject({
      method: 'POST',
      url: `/api/Jobs/retry?webcamId=${webcamId}`,
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    return response.json<{ outcome: 'captured'; image: { name: string } } | { outcome: 'failed'; error: string }>();
  }

  /** The camera's health on the admin's health view, at the service's clock. */
  async function healthOf(webcamId: number): Promise<Health | undefined> {
    const response = await service.app.inject({ url: '/api/Jobs/health', headers: admin });
    expect(response.statusCode).toBe(200);
    return response.json<{ webcamId: number; health: Health }[]>().find((camera) => camera.webcamId === webcamId)
      ?.health;
  }

  /** The current picture as an anonymous visitor (POOR, 480 px) and a signed-in viewer (LOW, 800 px) get it. */
  async function expectVisible(camera: string, name: string) {
    const url = `/api/Image/Get/camera/${camera}.jpg`;
    // A capture tells the replicas by the bus (NATS too): the delivery may take a moment to see it.
    await expect
      .poll(async () => (await service.app.inject({ url })).headers['x-image-name'], { timeout: 10_000 })
      .toBe(name);
    for (const [headers, level, width] of [
      [{}, 'POOR', 480],
      [viewer, 'LOW', 800],
    ] as const) {
      const { entitlement, picture } = await getPicture(service.app, url, headers);
      expect(entitlement.headers).toMatchObject({
        'x-image-quality': `${level}; default`,
        'x-image-name': name,
        'x-image-full-width': String(WIDTH),
      });
      expect([picture.statusCode, picture.headers['x-image-quality']]).toEqual([200, level]);
      expect((await sharp(picture.rawPayload).metadata()).width).toBe(width);
    }
  }

  /**
   * A camera the portal fetches: `start(picture, port)` brings its server up (port 0 the first time, the same
   * port when it resumes). Captured now, then silent: two failed attempts make it failing, three intervals
   * without a picture offline; its server back, the next capture makes it ok.
   */
  async function pulled(
    kind: number,
    name: string,
    source: Source,
    start: (picture: 0 | 1, port: number) => Promise<Running>,
  ) {
    const webcamId = 100 + kind;
    const { at, moveTo } = timeline(kind);
    const first = keep(await start(0, 0));
    await configure(webcamId, name, first.url, source);

    moveTo(0);
    expect(await captureNow(webcamId)).toMatchObject({ outcome: 'captured', image: { name: imageNameOf(at(0)) } });
    await expectVisible(name, imageNameOf(at(0)));
    moveTo(1);
    expect(await healthOf(webcamId)).toEqual(OK);

    await stop(first);
    moveTo(5);
    expect(await captureNow(webcamId)).toMatchObject({ outcome: 'failed', error: expect.stringMatching(/refused/i) });
    moveTo(10);
    const failed = await captureNow(webcamId);
    if (failed.outcome !== 'failed') throw new Error(`capture at minute 10: ${failed.outcome}`);
    expect(await healthOf(webcamId)).toEqual({ state: 'failing', since: at(5).toISOString(), reason: failed.error });
    moveTo(15);
    expect((await captureNow(webcamId)).outcome).toBe('failed');
    moveTo(16);
    expect(await healthOf(webcamId)).toEqual({ state: 'offline', since: at(0).toISOString(), reason: 'silent' });

    keep(await start(1, first.port));
    moveTo(20);
    expect(await captureNow(webcamId)).toMatchObject({ outcome: 'captured', image: { name: imageNameOf(at(20)) } });
    expect(await healthOf(webcamId)).toEqual(OK);
    await expectVisible(name, imageNameOf(at(20)));
  }

  /**
   * A camera that pushes, with the account or secret `connect` has the admin dialog make; the function it
   * gives uploads a picture. Seen as it arrives; no pushes for two intervals make it late, for three offline;
   * the next push makes it ok.
   */
  async function pushed(
    kind: number,
    name: string,
    source: Source,
    connect: (webcamId: number) => Promise<(picture: Buffer) => Promise<void>>,
  ): Promise<void> {
    const webcamId = 100 + kind;
    const { at, moveTo } = timeline(kind);
    await configure(webcamId, name, 'http://127.0.0.1:9/unused.jpg', source);
    const push = await connect(webcamId);
    // Two minutes into the interval: the picture is filed under the interval's start, and arrived now.
    moveTo(2);
    await push(pictures[0]);
    await expectVisible(name, imageNameOf(at(0)));
    const shown = await service.app.inject({ url: `/api/Image/Source?webcamId=${webcamId}`, headers: admin });
    expect(shown.json<CameraSource>().lastUpload).toMatchObject({ name: imageNameOf(at(0)), via: source.kind });
    moveTo(3);
    expect(await healthOf(webcamId)).toEqual(OK);

    moveTo(13);
    expect(await healthOf(webcamId)).toEqual({ state: 'late', since: at(2).toISOString(), reason: null });
    moveTo(18);
    expect(await healthOf(webcamId)).toEqual({ state: 'offline', since: at(2).toISOString(), reason: 'silent' });

    moveTo(20);
    await push(pictures[1]);
    expect(await healthOf(webcamId)).toEqual(OK);
    await expectVisible(name, imageNameOf(at(20)));
  }

  it('HTTP pull with Basic auth', async () => {
    await pulled(1, 'Kind-Basic', { kind: 'http', ...LOGIN }, (picture, port) =>
      startBasicCamera(pictures[picture], LOGIN, port),
    );
  });

  it('HTTP pull with Digest auth', async () => {
    await pulled(2, 'Kind-Digest', { kind: 'http', ...LOGIN }, async (picture, port) => {
      const camera = await startDigestCamera(pictures[picture], LOGIN, port);
      return { ...camera, url: camera.url() };
    });
  });

  it('RTSP over TCP, with a Digest login', async () => {
    await pulled(3, 'Kind-RTSP-TCP', { kind: 'stream', transport: 'tcp', ...LOGIN }, (picture, port) =>
      startRtspCamera([
        ...['--port', String(port), '--width', String(WIDTH), '--height', String(540 + picture * 36)],
        ...['--auth', 'digest', '--user', LOGIN.username, '--password', LOGIN.password],
      ]),
    );
  }, 60_000);

  it('RTSP over UDP', async () => {
    await pulled(4, 'Kind-RTSP-UDP', { kind: 'stream', transport: 'udp' }, (picture, port) =>
      startRtspCamera(['--port', String(port), '--width', String(WIDTH), '--height', String(540 + picture * 36)]),
    );
  }, 60_000);

  it('HLS', async () => {
    await pulled(5, 'Kind-HLS', { kind: 'stream' }, (picture, port) => startHlsCamera(hlsDirs[picture], port));
  }, 60_000);

  it('MJPEG over HTTP', async () => {
    await pulled(6, 'Kind-MJPEG', { kind: 'stream' }, (picture, port) => startMjpegCamera(pictures[picture], port));
  }, 60_000);

  /** A camera's FTP upload with the account the dialog made, over TLS (explicit, AUTH TLS) or not. */
  async function ftpCamera(webcamId: number, secure: boolean) {
    const made = await service.app.inject({
      method: 'POST',
      url: `/api/Image/Source/FtpPassword?webcamId=${webcamId}`,
      headers: admin,
    });
    const account = made.json<{ user: string; password: string }>();
    return async (picture: Buffer) => {
      const client = new Client(10_000);
      try {
        await client.access({
          host: '127.0.0.1',
          port: ftpPort,
          user: account.user,
          password: account.password,
          secure,
          ...(secure ? { secureOptions: { ca: tls.cert } } : {}),
        });
        await client.uploadFrom(Readable.from([picture]), 'bild.jpg');
      } finally {
        client.close();
      }
    };
  }

  /** What the FTP ingest logged of the camera's pictures: over TLS or not. */
  const ftpReceived = (camera: string) =>
    logged
      .map((line) => JSON.parse(line) as { msg: string; camera?: string; tls?: boolean; protectedData?: boolean })
      .filter((line) => line.msg === 'FTP picture received' && line.camera === camera)
      .map(({ tls, protectedData }) => ({ tls, protectedData }));

  it('FTP push', async () => {
    await pushed(7, 'Kind-FTP', { kind: 'ftp' }, (webcamId) => ftpCamera(webcamId, false));
    expect(ftpReceived('Kind-FTP')).toEqual([
      { tls: false, protectedData: false },
      { tls: false, protectedData: false },
    ]);
  });

  it('FTPS push', async () => {
    await pushed(8, 'Kind-FTPS', { kind: 'ftp' }, (webcamId) => ftpCamera(webcamId, true));
    expect(ftpReceived('Kind-FTPS')).toEqual([
      { tls: true, protectedData: true },
      { tls: true, protectedData: true },
    ]);
  });

  it('HTTP push', async () => {
    await pushed(9, 'Kind-Push', { kind: 'push' }, async (webcamId) => {
      const made = await service.app.inject({
        method: 'POST',
        url: `/api/Image/Source/PushSecret?webcamId=${webcamId}`,
        headers: admin,
      });
      const { path, secret } = made.json<{ path: string; secret: string }>();
      expect(path).toBe('/api/Image/Push/camera/Kind-Push.jpg');
      return async (picture) => {
        const put = await service.app.inject({
          method: 'PUT',
          url: path,
          payload: picture,
          headers: { 'content-type': 'image/jpeg', authorization: `Bearer ${secret}` },
        });
        expect(put.statusCode).toBe(201);
      };
    });
  });
});
