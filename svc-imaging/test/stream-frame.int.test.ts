import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grabStreamFrame, isStreamUrl, type StreamFrameOptions, streamKind } from '../src/capture/stream-frame.ts';
import { FFMPEG_PATH } from '../src/archive/timelapse-encoder.ts';
import { startRtspCamera } from './camera-servers.ts';

// Real protocols: GStreamer's RTSP server (Debian's gir1.2-gst-rtsp-server-1.0, .ci/run installs it), an HLS
// playlist the bundled ffmpeg writes, and MJPEG over node:http.

const LIMITS = { timeoutMs: 8_000, maxBytes: 5 * 1024 * 1024 };
type RtspServer = Awaited<ReturnType<typeof startRtspCamera>>;

async function listen<T extends Server | TcpServer>(server: T): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

async function closeHttp(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** A grab, with its ffmpeg's pid and the time it took; ffmpeg must be gone when it returns. */
async function grab(url: string, options: Partial<StreamFrameOptions> = {}) {
  const pids: number[] = [];
  const started = performance.now();
  const settle = async <T>(promise: Promise<T>) => {
    try {
      return { frame: await promise, error: null };
    } catch (error) {
      return { frame: null, error: error as Error };
    }
  };
  const result = await settle(
    grabStreamFrame(url, {
      ...LIMITS,
      ...options,
      onSpawn: (pid) => {
        pids.push(pid);
        options.onSpawn?.(pid);
      },
    }),
  );
  const ms = performance.now() - started;
  for (const pid of pids) expect(() => process.kill(pid, 0), `ffmpeg ${pid} outlived the call`).toThrow();
  return { ...result, ms, pids };
}

function resourceCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

async function expectJpeg(frame: Buffer | null, width: number, height: number) {
  expect(frame).not.toBeNull();
  const metadata = await sharp(frame as Buffer).metadata();
  expect({ format: metadata.format, width: metadata.width, height: metadata.height }).toEqual({
    format: 'jpeg',
    width,
    height,
  });
}

describe('streamKind', () => {
  it('names RTSP and HLS URLs and leaves the others to the caller', () => {
    expect(streamKind('rtsp://cam.example.org/live')).toBe('rtsp');
    expect(streamKind('rtsps://cam.example.org:322/live')).toBe('rtsp');
    expect(streamKind('https://cdn.example.org/lake/index.M3U8')).toBe('hls');
    expect(streamKind('https://cam.example.org/video.cgi')).toBeNull();
    expect(streamKind('not a url')).toBeNull();
    expect(isStreamUrl('rtsp://cam.example.org/live')).toBe(true);
    expect(isStreamUrl('https://cam.example.org/snapshot.jpg')).toBe(false);
  });
});

describe('RTSP (GStreamer RTSP server)', () => {
  let open: RtspServer;
  let digest: RtspServer;
  let basic: RtspServer;
  const password = 'p@ss/w:r%d#?';

  beforeAll(async () => {
    [open, digest, basic] = await Promise.all([
      startRtspCamera(['--width', '320', '--height', '240']),
      startRtspCamera([
        '--width',
        '352',
        '--height',
        '288',
        '--auth',
        'digest',
        '--user',
        'lake cam',
        '--password',
        password,
      ]),
      startRtspCamera([
        '--width',
        '176',
        '--height',
        '144',
        '--auth',
        'basic',
        '--user',
        'cam',
        '--password',
        'secret',
      ]),
    ]);
  });
  afterAll(async () => {
    await Promise.all([open?.close(), digest?.close(), basic?.close()]);
  });

  it('takes one frame over TCP, its host name looked up by node', async () => {
    const { frame, error } = await grab(`rtsp://localhost:${open.port}/stream`, { transport: 'tcp' });
    expect(error).toBeNull();
    await expectJpeg(frame, 320, 240);
  });

  it('takes one frame over UDP', async () => {
    const { frame, error } = await grab(`rtsp://127.0.0.1:${open.port}/stream`, { transport: 'udp' });
    expect(error).toBeNull();
    await expectJpeg(frame, 320, 240);
  });

  it('answers a Digest login given separately, with characters URLs reserve', async () => {
    const { frame, error } = await grab(`rtsp://127.0.0.1:${digest.port}/stream`, {
      login: { username: 'lake cam', password },
    });
    expect(error).toBeNull();
    await expectJpeg(frame, 352, 288);
  });

  it("answers a Basic login from the URL's user info", async () => {
    const { frame, error } = await grab(`rtsp://cam:secret@127.0.0.1:${basic.port}/stream`);
    expect(error).toBeNull();
    await expectJpeg(frame, 176, 144);
  });

  it('says the stream refused a wrong login, without the login', async () => {
    const wrong = await grab(`rtsp://lake%20cam:wrong-secret@127.0.0.1:${digest.port}/stream`);
    expect(wrong.error?.message).toBe('Stream refused the login (401)');
    expect(JSON.stringify(wrong.error)).not.toContain('wrong-secret');
    const none = await grab(`rtsp://127.0.0.1:${basic.port}/stream`);
    expect(none.error?.message).toBe('Stream asks for a login (401) and none is set');
  });

  it('says a path that does not exist is not found', async () => {
    const { error } = await grab(`rtsp://127.0.0.1:${open.port}/no-such-stream`);
    expect(error?.message).toBe('Stream not found (404)');
  });

  it('gives up on a server that sends nothing at the timeout, killing ffmpeg', async () => {
    const connections = new Set<Socket>();
    const silent = createTcpServer((socket) => connections.add(socket));
    const port = await listen(silent);
    try {
      const { error, ms, pids } = await grab(`rtsp://127.0.0.1:${port}/stream`, { timeoutMs: 2_000 });
      expect(error?.message).toBe('Stream gave no frame within 2 s');
      expect(pids).toHaveLength(1);
      expect(ms).toBeGreaterThanOrEqual(1_900);
      expect(ms).toBeLessThan(5_000);
    } finally {
      for (const socket of connections) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('says a closed port refuses and an unknown host is not found', async () => {
    const closed = createTcpServer();
    const port = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    expect((await grab(`rtsp://127.0.0.1:${port}/stream`)).error?.message).toBe('Connection refused');
    const unknown = await grab('rtsp://cam:secret@no-such-camera.invalid/stream');
    expect(unknown.error?.message).toBe('Host not found');
    expect(unknown.pids).toHaveLength(0);
  });
});

describe('HLS (playlist written by the bundled ffmpeg)', () => {
  let dir: string;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lakecams-hls-'));
    await new Promise<void>((resolve, reject) => {
      const ffmpeg = spawn(FFMPEG_PATH, [
        ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=400x224:rate=10', '-t', '2'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '10', '-threads', '1'],
        ...['-f', 'hls', '-hls_time', '1', '-hls_list_size', '0', join(dir, 'index.m3u8')],
      ]);
      ffmpeg.on('error', reject);
      ffmpeg.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg ${code}`))));
    });
    server = createServer(async (request, response) => {
      const name = /^\/live\/([\w.]+)$/.exec(request.url ?? '')?.[1];
      if (request.url === '/page') {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>Kein Stream</p>');
        return;
      }
      try {
        if (!name) throw new Error('no file');
        response.end(await readFile(join(dir, name)));
      } catch {
        response.writeHead(404).end();
      }
    });
    port = await listen(server);
  });
  afterAll(async () => {
    if (server) await closeHttp(server);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('takes one frame of the playlist, through a host name', async () => {
    const { frame, error } = await grab(`http://localhost:${port}/live/index.m3u8`);
    expect(error).toBeNull();
    await expectJpeg(frame, 400, 224);
  });

  it('says a missing playlist is not found, a web page is not a stream, an unknown host not found', async () => {
    expect((await grab(`http://127.0.0.1:${port}/live/missing.m3u8`)).error?.message).toBe('Stream not found (404)');
    expect((await grab(`http://127.0.0.1:${port}/page`)).error?.message).toBe('Not a stream ffmpeg can read');
    expect((await grab('http://no-such-camera.invalid/live/index.m3u8')).error?.message).toBe('Host not found');
  });
});

describe('MJPEG over HTTP (multipart/x-mixed-replace)', () => {
  let server: Server;
  let port: number;
  let part: Buffer;
  const authorization = `Basic ${Buffer.from('gast:ü:geheim').toString('base64')}`;

  beforeAll(async () => {
    part = await sharp({
      create: {
        width: 480,
        height: 270,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg({ quality: 90 })
      .toBuffer();
    const mjpeg: RequestListener = (request, response) => {
      if (request.url === '/hang') return;
      if (request.url === '/login' && request.headers.authorization !== authorization) {
        response.writeHead(401, { 'www-authenticate': 'Basic realm="Kamera"' }).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=frame' });
      const send = () =>
        response.write(
          Buffer.concat([Buffer.from('--frame\r\nContent-Type: image/jpeg\r\n\r\n'), part, Buffer.from('\r\n')]),
        );
      send();
      const timer = setInterval(send, 100);
      response.on('close', () => clearInterval(timer));
    };
    server = createServer(mjpeg);
    port = await listen(server);
  });
  afterAll(async () => {
    if (server) await closeHttp(server);
  });

  it('takes one part of the stream', async () => {
    const { frame, error } = await grab(`http://localhost:${port}/video`);
    expect(error).toBeNull();
    await expectJpeg(frame, 480, 270);
  });

  it('answers the login, and says when it is refused', async () => {
    const ok = await grab(`http://127.0.0.1:${port}/login`, { login: { username: 'gast', password: 'ü:geheim' } });
    expect(ok.error).toBeNull();
    await expectJpeg(ok.frame, 480, 270);
    const refused = await grab(`http://gast:falsch@127.0.0.1:${port}/login`);
    expect(refused.error?.message).toBe('Stream refused the login (401)');
    expect(refused.error?.message).not.toContain('falsch');
  });

  it('refuses a frame over the byte limit', async () => {
    const { error } = await grab(`http://127.0.0.1:${port}/video`, { maxBytes: 10_000 });
    expect(error?.message).toBe('Frame too large (over 10000 bytes)');
  });

  it('gives up on a silent server at the timeout and on abort, leaving no process, server or timer', async () => {
    const before = resourceCounts();
    const silent = await grab(`http://127.0.0.1:${port}/hang`, { timeoutMs: 2_000 });
    expect(silent.error?.message).toBe('Stream gave no frame within 2 s');
    expect(silent.ms).toBeLessThan(5_000);

    const controller = new AbortController();
    const aborted = grab(`http://127.0.0.1:${port}/hang`, {
      signal: controller.signal,
      onSpawn: () => controller.abort(new Error('Kamera entfernt')),
    });
    const { error, ms } = await aborted;
    expect(error?.message).toBe('Kamera entfernt');
    expect(ms).toBeLessThan(3_000);
    // Nothing more than before: no ffmpeg pipes, proxy server or sockets, no timers.
    await expect
      .poll(() => Object.entries(resourceCounts()).filter(([kind, n]) => n > (before[kind] ?? 0)), { timeout: 5_000 })
      .toEqual([]);
  });
});
