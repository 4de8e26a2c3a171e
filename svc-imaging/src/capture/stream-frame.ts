import { spawn } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, request as httpRequest } from 'node:http';
import { connect, isIP, type Socket } from 'node:net';
import { FFMPEG_PATH } from '../archive/timelapse-encoder.ts';
import { CameraFetchError } from './camera-fetch.ts';
import { type CameraLogin, splitUrlLogin, withoutUrlLogins } from './camera-login.ts';

/**
 * One still picture from a camera that only streams (RTSP, HLS, MJPEG over HTTP): the bundled ffmpeg takes
 * the first frame and encodes it as JPEG. MJPEG is read by ffmpeg too rather than parsed here: one bounded
 * path for every stream (timeout, byte cap, errors), ffmpeg answers Basic and Digest challenges from the
 * URL's login for HTTP as for RTSP, it copes with parts with or without Content-Length, and decoding the
 * frame checks it is a picture. The cost is one re-encode at -q:v 2.
 */

export type StreamTransport = 'tcp' | 'udp';

export interface StreamFrameOptions {
  timeoutMs: number;
  maxBytes: number;
  /** RTSP only: how RTP reaches us. TCP by default, as UDP rarely passes a NAT or firewall. */
  transport?: StreamTransport | undefined;
  /** Used instead of the URL's user info when given. */
  login?: CameraLogin | undefined;
  signal?: AbortSignal | undefined;
  /** The ffmpeg process started (tests check it is gone afterwards). */
  onSpawn?: ((pid: number) => void) | undefined;
}

export type StreamKind = 'rtsp' | 'hls';

/** rtsp(s) URLs are streams, http(s) URLs ending in .m3u8 HLS; for any other URL the caller decides (null). */
export function streamKind(url: string): StreamKind | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol === 'rtsp:' || parsed.protocol === 'rtsps:') return 'rtsp';
  if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && /\.m3u8$/i.test(parsed.pathname)) return 'hls';
  return null;
}

export function isStreamUrl(url: string): boolean {
  return streamKind(url) !== null;
}

const NETWORK_FAILURES: Readonly<Record<string, string>> = {
  ENOTFOUND: 'Host not found',
  EAI_AGAIN: 'Host not found',
  EAI_NONAME: 'Host not found',
  ECONNREFUSED: 'Connection refused',
  ECONNRESET: 'Connection reset',
  EHOSTUNREACH: 'Host unreachable',
  ENETUNREACH: 'Host unreachable',
  ETIMEDOUT: 'Connection timed out',
};

function networkFailure(error: unknown): string {
  const code = (error as { code?: string }).code ?? '';
  return NETWORK_FAILURES[code] ?? `Network error (${code || 'unknown'})`;
}

/** The URL with the login as percent-encoded user info, which this ffmpeg decodes; only ffmpeg's argument holds it. */
function withLogin(url: URL, login: CameraLogin | null): string {
  const bare = new URL(url);
  bare.hash = '';
  if (!login) return bare.href;
  const userInfo = `${encodeURIComponent(login.username)}:${encodeURIComponent(login.password)}`;
  return bare.href.replace(/^([a-z][a-z\d+.-]*:\/\/)/i, `$1${userInfo}@`);
}

/**
 * The static ffmpeg crashes (SIGSEGV) looking up any host name itself, its static glibc at odds with the
 * system's NSS, so names are looked up here: an RTSP URL gets the address (rtsps then goes without SNI), and HTTP goes
 * through a local proxy of this call, which keeps the name for the Host header, TLS and HLS segments on
 * other hosts.
 */
async function withAddress(url: URL): Promise<URL> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return url;
  const { address, family } = await lookup(host).catch((error) => {
    throw new CameraFetchError(networkFailure(error));
  });
  const resolved = new URL(url);
  resolved.hostname = family === 6 ? `[${address}]` : address;
  return resolved;
}

interface LocalProxy {
  url: string;
  /** Why the proxy could not reach the camera, if it could not. */
  failure(): string | null;
  close(): void;
}

/** A forward proxy for one call on 127.0.0.1, answering only with its random login (ffmpeg sends it after a 407). */
async function startProxy(): Promise<LocalProxy> {
  const secret = randomBytes(18).toString('base64url');
  const expected = `Basic ${Buffer.from(`ffmpeg:${secret}`).toString('base64')}`;
  const sockets = new Set<Socket>();
  let failure: string | null = null;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  };
  const allowed = (request: IncomingMessage) => request.headers['proxy-authorization'] === expected;
  const challenge = 'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="ffmpeg"\r\n';

  const server = createServer((request, response) => {
    if (!allowed(request)) {
      response.writeHead(407, { 'proxy-authenticate': 'Basic realm="ffmpeg"' }).end();
      return;
    }
    let target: URL;
    try {
      target = new URL(request.url ?? '');
    } catch {
      response.writeHead(400).end();
      return;
    }
    if (target.protocol !== 'http:') {
      response.writeHead(400).end();
      return;
    }
    const headers = { ...request.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest(
      {
        host: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port || 80,
        path: `${target.pathname}${target.search}`,
        method: request.method ?? 'GET',
        headers,
        agent: false,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(response);
      },
    );
    upstream.on('socket', track);
    upstream.on('error', (error) => {
      failure ??= networkFailure(error);
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    response.on('close', () => upstream.destroy());
    request.pipe(upstream);
  });
  server.on('connection', track);
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    if (!allowed(request)) {
      client.end(`${challenge}Content-Length: 0\r\n\r\n`);
      return;
    }
    const [host = '', port = '443'] = (request.url ?? '').split(/:(?=\d+$)/);
    const upstream = connect(Number(port), host.replace(/^\[|\]$/g, ''));
    track(upstream);
    upstream.on('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', (error) => {
      failure ??= networkFailure(error);
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
    });
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://ffmpeg:${secret}@127.0.0.1:${port}`,
    failure: () => failure,
    close() {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** ffmpeg's complaint in plain words: the status or network failure it names, never the URL it names it with. */
export function streamFailure(stderr: string, login: CameraLogin | null): CameraFetchError {
  let text = withoutUrlLogins(stderr);
  // The password outside a URL too, should ffmpeg ever print it so.
  for (const secret of login?.password ? [login.password, encodeURIComponent(login.password)] : [])
    text = text.replaceAll(secret, '***');
  if (/401 Unauthorized|authorization failed/i.test(text))
    return new CameraFetchError(
      login ? 'Stream refused the login (401)' : 'Stream asks for a login (401) and none is set',
      { final: true },
    );
  if (/403 Forbidden/i.test(text)) return new CameraFetchError('Stream refused access (403)', { final: true });
  if (/404 Not Found/i.test(text)) return new CameraFetchError('Stream not found (404)');
  if (/Connection refused/i.test(text)) return new CameraFetchError('Connection refused');
  if (/Failed to resolve hostname|Name or service not known|name resolution/i.test(text))
    return new CameraFetchError('Host not found');
  if (/No route to host|Network is unreachable/i.test(text)) return new CameraFetchError('Host unreachable');
  if (/Connection reset/i.test(text)) return new CameraFetchError('Connection reset');
  if (/Connection timed out/i.test(text)) return new CameraFetchError('Connection timed out');
  if (/matches no streams|does not contain any stream/i.test(text))
    return new CameraFetchError('Not a stream ffmpeg can read (no video in it)', { final: true });
  const status = /method \w+ failed: (\d{3})|Server returned (\d{3})/.exec(text);
  if (status) return new CameraFetchError(`Stream answered ${status[1] ?? status[2]}`);
  if (
    /Invalid data found|Could not find codec parameters|Unknown input format|not on whitelist|Invalid argument/i.test(
      text,
    )
  )
    return new CameraFetchError('Not a stream ffmpeg can read', { final: true });
  const last = text.trim().split('\n').at(-1)?.slice(0, 200);
  return new CameraFetchError(`ffmpeg could not read the stream${last ? `: ${last}` : ''}`);
}

export function streamFrameArguments(input: string, kind: StreamKind | 'http', transport: StreamTransport): string[] {
  const protocols = kind === 'rtsp' ? 'tcp,udp,rtp,tls' : 'http,https,httpproxy,tcp,tls,crypto';
  return [
    ...['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error', '-threads', '1', '-filter_threads', '1'],
    // Nothing but the network: a playlist naming file: or other protocols is refused.
    ...['-protocol_whitelist', protocols],
    // The probe ends once the codec is known (no frame rate estimate), and at 5 MB or 5 s at most.
    ...['-probesize', '5000000', '-analyzeduration', '5000000', '-fpsprobesize', '0'],
    ...(kind === 'rtsp' ? ['-rtsp_transport', transport] : []),
    // A live playlist's newest segment: the latest picture.
    ...(kind === 'hls' ? ['-f', 'hls', '-live_start_index', '-1'] : []),
    ...['-i', input],
    ...['-map', '0:v:0', '-an', '-sn', '-dn', '-frames:v', '1', '-threads', '1'],
    ...['-c:v', 'mjpeg', '-q:v', '2', '-f', 'image2pipe', 'pipe:1'],
  ];
}

/**
 * One frame of the stream at `url` as JPEG at its full size. Bounded: ffmpeg's process group is killed
 * at `timeoutMs` or on `signal`, and when its output passes `maxBytes`. Errors are CameraFetchErrors
 * with plain messages and no login in them.
 */
export async function grabStreamFrame(url: string, options: StreamFrameOptions): Promise<Buffer> {
  const { timeoutMs, signal } = options;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CameraFetchError('The stream URL is not a valid URL', { final: true });
  }
  if (!['rtsp:', 'rtsps:', 'http:', 'https:'].includes(parsed.protocol))
    throw new CameraFetchError('Only rtsp, rtsps, http and https stream URLs are read', { final: true });
  const split = splitUrlLogin(parsed);
  const login = options.login ?? split.login;
  const kind = streamKind(parsed.href) ?? 'http';
  signal?.throwIfAborted();

  const timedOut = () => new CameraFetchError(`Stream gave no frame within ${seconds(timeoutMs)} s`);
  const deadline = Date.now() + timeoutMs;
  let proxy: LocalProxy | null = null;
  try {
    let input: string;
    const env: Record<string, string> = {};
    if (kind === 'rtsp') {
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      try {
        // A lookup cannot be cancelled; the call gives up on it at its deadline.
        const address = await Promise.race([
          withAddress(split.url),
          new Promise<never>((_resolve, reject) => {
            timer = setTimeout(() => reject(timedOut()), timeoutMs);
            onAbort = () => reject(signal?.reason);
            signal?.addEventListener('abort', onAbort, { once: true });
          }),
        ]);
        input = withLogin(address, login);
      } finally {
        clearTimeout(timer);
        if (onAbort) signal?.removeEventListener('abort', onAbort);
      }
    } else {
      proxy = await startProxy();
      env.http_proxy = proxy.url;
      input = withLogin(split.url, login);
    }
    const remaining = Math.max(1, deadline - Date.now());
    return await runFfmpeg(streamFrameArguments(input, kind, options.transport ?? 'tcp'), env, {
      ...options,
      timeoutMs: remaining,
      timedOut,
      failure: (stderr) => {
        const reached = proxy?.failure();
        return reached ? new CameraFetchError(reached) : streamFailure(stderr, login);
      },
    });
  } finally {
    proxy?.close();
  }
}

function runFfmpeg(
  args: string[],
  env: Record<string, string>,
  options: StreamFrameOptions & { timedOut: () => Error; failure: (stderr: string) => Error },
): Promise<Buffer> {
  const { timeoutMs, maxBytes, signal } = options;
  return new Promise<Buffer>((resolve, reject) => {
    // Its own process group, so a kill takes anything it started with it.
    const ffmpeg = spawn(FFMPEG_PATH, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env });
    const chunks: Buffer[] = [];
    let total = 0;
    let stderr = '';
    let outcome: Error | null = null;
    const stop = (error: Error) => {
      outcome ??= error;
      try {
        if (ffmpeg.pid) process.kill(-ffmpeg.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => stop(options.timedOut()), timeoutMs);
    const onAbort = () => stop(signal?.reason instanceof Error ? signal.reason : new Error('Aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    if (ffmpeg.pid) options.onSpawn?.(ffmpeg.pid);
    ffmpeg.stdout.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) stop(new CameraFetchError(`Frame too large (over ${maxBytes} bytes)`, { final: true }));
      else chunks.push(chunk);
    });
    ffmpeg.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    ffmpeg.on('error', (error) => {
      outcome ??= new CameraFetchError(`ffmpeg could not be started (${(error as NodeJS.ErrnoException).code})`);
    });
    // 'close' comes after the process exited and its pipes closed: nothing of it is left.
    ffmpeg.on('close', (code, killedBy) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (outcome) return reject(outcome);
      if (code === 0 && total > 0) return resolve(Buffer.concat(chunks));
      if (code === 0) return reject(new CameraFetchError('Stream gave no frame'));
      if (killedBy) return reject(new CameraFetchError(`ffmpeg failed (${killedBy})`));
      reject(options.failure(stderr));
    });
    if (signal?.aborted) onAbort();
  });
}
