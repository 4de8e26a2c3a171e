import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { FFMPEG_PATH } from '../src/archive/timelapse-encoder.ts';

const REALM = 'Hafenkamera';
const NONCE = '5e3f0c1b9a7d';

/**
 * An IP camera that asks Digest (MD5, qop=auth) and delivers a JPEG to `kamera` with the password `secret` (or
 * `login`); `port` to come back where it was.
 */
export async function startDigestCamera(picture: Buffer, login = { username: 'kamera', password: 'secret' }, port = 0) {
  const md5 = (text: string) => createHash('md5').update(text).digest('hex');
  const server: Server = createServer((request, response) => {
    const fields = Object.fromEntries(
      [...(request.headers.authorization ?? '').matchAll(/(\w+)="?([^",]*)"?/g)].map(([, k, v]) => [k, v]),
    );
    const ha1 = md5(`${login.username}:${REALM}:${login.password}`);
    const ha2 = md5(`GET:${fields.uri}`);
    const expected = md5(`${ha1}:${NONCE}:${fields.nc}:${fields.cnonce}:auth:${ha2}`);
    if (fields.username === login.username && fields.response === expected) {
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      return response.end(picture);
    }
    response.writeHead(401, { 'www-authenticate': `Digest realm="${REALM}", qop="auth", nonce="${NONCE}"` });
    response.end();
  });
  const bound = await listen(server, port);
  return {
    port: bound,
    /** The camera's URL with a login in it. */
    url: (userInfo?: string) => `http://${userInfo ? `${userInfo}@` : ''}127.0.0.1:${bound}/snapshot.jpg`,
    close: () => close(server),
  };
}

/** An IP camera that asks Basic and delivers a JPEG with `login`; `port` to come back where it was. */
export async function startBasicCamera(picture: Buffer, login: { username: string; password: string }, port = 0) {
  const expected = `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`;
  const server: Server = createServer((request, response) => {
    if (request.headers.authorization === expected) {
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      return response.end(picture);
    }
    response.writeHead(401, { 'www-authenticate': 'Basic realm="Seekamera"' });
    response.end();
  });
  const bound = await listen(server, port);
  return { port: bound, url: `http://127.0.0.1:${bound}/image.jpg`, close: () => close(server) };
}

/** A camera that streams MJPEG over HTTP (multipart/x-mixed-replace), a part every 100 ms, without a login. */
export async function startMjpegCamera(part: Buffer, port = 0) {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=frame' });
    const send = () =>
      response.write(
        Buffer.concat([Buffer.from('--frame\r\nContent-Type: image/jpeg\r\n\r\n'), part, Buffer.from('\r\n')]),
      );
    send();
    const timer = setInterval(send, 100);
    response.on('close', () => clearInterval(timer));
  });
  const bound = await listen(server, port);
  return { port: bound, url: `http://127.0.0.1:${bound}/video.mjpg`, close: () => close(server) };
}

/** On loopback, on `port` (0: a free one); resolves the port it got. */
async function listen(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as { port: number }).port;
}

/** Gone at once, as a camera switched off: open connections too, so a client keeping one alive finds none. */
function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

const RTSP_SERVER = join(import.meta.dirname, 'fixtures', 'rtsp-server.py');

/**
 * GStreamer's RTSP server (fixtures/rtsp-server.py, Debian's python3 with its GObject bindings) serving a test
 * pattern at `/stream`; `args` as the fixture takes them (`--port` to come back where it was).
 */
export async function startRtspCamera(args: string[] = []) {
  const child = spawn('/usr/bin/python3', [RTSP_SERVER, ...args]);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /ready (\d+)/.exec(out);
      if (ready) resolve(Number(ready[1]));
    });
    child.on('close', (code) => reject(new Error(`rtsp-server.py ended (${code}): ${stderr}`)));
  });
  return {
    port,
    url: `rtsp://127.0.0.1:${port}/stream`,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const closed = new Promise((resolve) => child.once('close', resolve));
      child.kill('SIGTERM');
      await closed;
    },
  };
}

/** A short HLS recording of an ffmpeg test source (`lavfi`, e.g. `testsrc=size=960x540:rate=10`) into `dir`. */
export function recordHls(dir: string, lavfi: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const ffmpeg = spawn(FFMPEG_PATH, [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', lavfi, '-t', '1'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '10', '-threads', '1'],
      ...['-f', 'hls', '-hls_time', '1', '-hls_list_size', '0', join(dir, 'index.m3u8')],
    ]);
    ffmpeg.on('error', reject);
    ffmpeg.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg ${code}`))));
  });
}

/** Serves the HLS recording in `dir` at `/live/index.m3u8` and its segments beside it. */
export async function startHlsCamera(dir: string, port = 0) {
  const server: Server = createServer(async (request, response) => {
    const name = /^\/live\/([\w.]+)$/.exec(request.url ?? '')?.[1];
    try {
      if (!name) throw new Error('no file');
      response.end(await readFile(join(dir, name)));
    } catch {
      response.writeHead(404).end();
    }
  });
  const bound = await listen(server, port);
  return { port: bound, url: `http://127.0.0.1:${bound}/live/index.m3u8`, close: () => close(server) };
}
