/**
 * FTP and explicit FTPS receiver for cameras that push their pictures (docs/decisions.md, "Cameras that push by
 * FTP"). Upload only: a camera logs in with its own account, may make and enter folders, uploads with STOR or
 * APPE (also under a temporary name renamed to .jpg afterwards); every picture goes to `onPicture`, nothing is
 * written to disk, nothing can be downloaded.
 *
 * What an operator configures (the wiring reads these):
 * - `FTP_PORT` → `port`: the control port cameras connect to (21 is the usual one, or e.g. 2121 unprivileged);
 * - `FTP_PASSIVE_PORTS` → `passivePorts`, e.g. `30000-30049`: data connections are accepted only there, one port
 *   per upload in progress. Every port of the range must reach this process under the same number (a firewall,
 *   NAT, Docker or a Kubernetes Service forwards them 1:1), and a camera's data connection the same replica as its
 *   control connection (one FTP replica, or `sessionAffinity: ClientIP` with `externalTrafficPolicy: Local`, which
 *   also keeps the camera's address: data is accepted only from the address that logged in);
 * - `FTP_PUBLIC_HOST` → `publicHost`: the IPv4 address (or a name resolving to one, looked up at start) cameras
 *   reach this server at, announced in PASV replies (EPSV replies carry only the port); empty: the address the
 *   camera connected to, right only without NAT;
 * - `FTP_TLS_CERT`, `FTP_TLS_KEY` → `tls` (PEM): offers explicit FTPS (AUTH TLS on the control port, PBSZ 0 and
 *   PROT P for data); without them plain FTP only. Implicit FTPS (port 990) is not offered;
 * - `requireTls` (e.g. `FTP_REQUIRE_TLS`): refuse logins and data connections without TLS (needs `tls`);
 * - `maxBytes`: larger uploads are aborted (25 MB, as for pictures uploaded by hand).
 * Cameras must use passive mode; active mode (PORT, EPRT) is refused.
 */
import { lookup } from 'node:dns/promises';
import { createServer, isIPv4, type Server, type Socket } from 'node:net';
import { posix } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSecureContext, type SecureContext, TLSSocket } from 'node:tls';
import { exceedsPictureLimit, PICTURE_FORMATS, PICTURE_TOO_LARGE_MESSAGE } from '@lakecams/contracts';
import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';

export interface FtpAccount {
  webcamId: number;
  camera: string;
}

export interface FtpIngestOptions {
  /** Listen address of the control and the passive ports (`0.0.0.0`, `::`, `127.0.0.1`). */
  host: string;
  /** Control port; 0 takes a free one (tests). */
  port: number;
  /** Passive data ports, both included; `{ min: 0, max: 0 }` takes free ones (tests). */
  passivePorts: { min: number; max: number };
  /** IPv4 address (or name) announced in PASV replies; '' for the address the camera connected to. */
  publicHost: string;
  /** Certificate and key (PEM) for explicit FTPS; without them plain FTP only. */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** Refuse USER/PASS before AUTH TLS, and data connections without PROT P. */
  requireTls?: boolean;
  /** Uploads larger than this are aborted. */
  maxBytes: number;
  /** The camera's account for this login, or null: unknown user or wrong password alike. */
  authenticate(user: string, password: string): Promise<FtpAccount | null>;
  /** A picture arrived; `fileName` is where the camera put it, folders included (`/2026/11/27/1200.jpg`). */
  onPicture(account: FtpAccount, bytes: Buffer, fileName: string): Promise<void>;
  log: FastifyBaseLogger;
  /** Failed logins per address delay the next: base × 2^(failures − 1), at most max; one failure is forgotten a minute. Default 500 ms, 10 s. */
  loginThrottle?: { baseMs: number; maxMs: number };
  /** Default 256 connections in all, 32 from one address (many cameras behind one NAT). */
  maxConnections?: number;
  maxConnectionsPerAddress?: number;
  /** A connection idle this long is closed (default 120 s); one not logged in after a minute as well. */
  idleTimeoutMs?: number;
  /** Accept data connections only from the control connection's address (default true; off only behind a proxy that changes it). */
  sameAddressForData?: boolean;
}

export interface FtpIngest {
  /** The control port listened on. */
  port: number;
  /** Stops listening, ends every connection and waits for pictures being handed over. */
  close(): Promise<void>;
}

const MAX_LINE_BYTES = 2048;
const MAX_PATH = 1024;
const LOGIN_TIMEOUT_MS = 60_000;
const DATA_CONNECT_TIMEOUT_MS = 20_000;
const DATA_IDLE_TIMEOUT_MS = 60_000;
const MAX_FAILED_LOGINS_PER_CONNECTION = 3;
const REMEMBERED_FILES = 32;
const HELD_FILES = 4;

const PICTURE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.jpe', '.png', '.webp']);
/** What cameras push beside their pictures: taken and dropped, so the camera sees success and goes on. */
const SIDECAR_EXTENSIONS = new Set([
  '.txt',
  '.xml',
  '.json',
  '.log',
  '.ini',
  '.cfg',
  '.conf',
  '.csv',
  '.htm',
  '.html',
  '.md5',
  '.sha1',
  '.sha256',
  '.sfv',
  '.xmp',
  '.nfo',
  '.inf',
]);
const TEMPORARY_SUFFIX = /(\.(tmp|temp|part|partial|filepart|upload|uploading)|~)$/i;

export async function startFtpIngest(options: FtpIngestOptions): Promise<FtpIngest> {
  const { min, max } = options.passivePorts;
  if (!(Number.isInteger(min) && Number.isInteger(max) && min >= 0 && max <= 65535 && min <= max)) {
    throw new Error(`Passive ports must be a range within 0-65535, not ${min}-${max}`);
  }
  if (!(options.maxBytes > 0)) throw new Error('maxBytes must be positive');
  if (options.requireTls && !options.tls) throw new Error('requireTls needs a certificate and key (tls)');
  const announced = await announcedAddress(options.publicHost);
  const secureContext = options.tls
    ? createSecureContext({ key: options.tls.key, cert: options.tls.cert, minVersion: 'TLSv1.2' })
    : undefined;
  const ingest = new Ingest(options, announced, secureContext);
  return ingest.listen();
}

async function announcedAddress(publicHost: string): Promise<string | null> {
  if (publicHost === '') return null;
  if (isIPv4(publicHost)) return publicHost;
  const { address } = await lookup(publicHost, { family: 4 });
  return address;
}

const plainAddress = (address: string | undefined) => (address ?? '').replace(/^::ffff:/i, '');

/** Spaces out logins from an address that failed recently, however many connections it opens. */
class LoginThrottle {
  readonly #entries = new Map<string, { failures: number; at: number; nextAt: number }>();
  readonly #baseMs: number;
  readonly #maxMs: number;

  constructor(baseMs: number, maxMs: number) {
    this.#baseMs = baseMs;
    this.#maxMs = maxMs;
  }

  #failures(entry: { failures: number; at: number }, now: number) {
    return Math.max(0, entry.failures - (now - entry.at) / 60_000);
  }

  async wait(address: string, signal: AbortSignal): Promise<void> {
    const entry = this.#entries.get(address);
    if (!entry) return;
    const now = Date.now();
    const failures = Math.ceil(this.#failures(entry, now));
    if (failures < 1) return;
    const delay = Math.min(this.#baseMs * 2 ** (failures - 1), this.#maxMs);
    const slot = Math.max(now, entry.nextAt) + delay;
    entry.nextAt = slot;
    await sleep(slot - now, undefined, { signal });
  }

  failed(address: string) {
    const now = Date.now();
    const entry = this.#entries.get(address);
    const failures = (entry ? this.#failures(entry, now) : 0) + 1;
    this.#entries.delete(address);
    this.#entries.set(address, { failures, at: now, nextAt: entry?.nextAt ?? 0 });
    // Bounded whatever the number of addresses: the least recently failed go first.
    for (const key of this.#entries.keys()) {
      if (this.#entries.size <= 10_000) break;
      this.#entries.delete(key);
    }
  }
}

interface PassiveChannel {
  port: number;
  /** The accepted data connection (TLS already wrapped around it when PROT P), or an error. */
  accepted: Promise<{ socket: Socket; secured: Promise<void> }>;
  /** Stops listening and ends the data connection, if one came. */
  close(): void;
}

class Ingest {
  readonly options: FtpIngestOptions;
  readonly announced: string | null;
  readonly secureContext: SecureContext | undefined;
  readonly log: FastifyBaseLogger;
  readonly throttle: LoginThrottle;
  readonly sessions = new Set<Session>();
  /** Open passive listeners: how to close each, and when it has closed. */
  readonly passiveListeners = new Map<Server, { close(): void; closed: Promise<void> }>();
  readonly deliveries = new Set<Promise<unknown>>();
  readonly usedPassivePorts = new Set<number>();
  /** Connections answered 421 (too many), closed by the camera or after 5 s. */
  readonly turnedAway = new Set<Socket>();
  readonly server: Server;
  closing: Promise<void> | null = null;

  constructor(options: FtpIngestOptions, announced: string | null, secureContext: SecureContext | undefined) {
    this.options = options;
    this.announced = announced;
    this.secureContext = secureContext;
    this.log = options.log;
    const throttle = options.loginThrottle ?? { baseMs: 500, maxMs: 10_000 };
    this.throttle = new LoginThrottle(throttle.baseMs, throttle.maxMs);
    this.server = createServer((socket) => this.accept(socket));
  }

  async listen(): Promise<FtpIngest> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port, this.options.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.server.on('error', (error) => this.log.error({ err: error }, 'FTP ingest server error'));
    const { port } = this.server.address() as { port: number };
    this.log.info(
      { port, passivePorts: this.options.passivePorts, tls: Boolean(this.secureContext) },
      'FTP ingest listening',
    );
    return { port, close: () => this.close() };
  }

  accept(socket: Socket) {
    const address = plainAddress(socket.remoteAddress);
    const fromAddress = [...this.sessions].filter((session) => session.address === address).length;
    if (this.closing) {
      socket.destroy();
      return;
    }
    if (
      this.sessions.size >= (this.options.maxConnections ?? 256) ||
      fromAddress >= (this.options.maxConnectionsPerAddress ?? 32)
    ) {
      this.log.warn({ address, reason: 'too many connections' }, 'FTP connection refused');
      this.turnedAway.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => this.turnedAway.delete(socket));
      socket.end('421 Too many connections, try again later\r\n');
      socket.setTimeout(5_000, () => socket.destroy());
      return;
    }
    const session = new Session(this, socket, address);
    this.sessions.add(session);
    session.start();
  }

  /** Listens on a free port of the passive range for one data connection from `address`. */
  async openPassive(address: string, secure: boolean, log: object): Promise<PassiveChannel | null> {
    const { min, max } = this.options.passivePorts;
    const listener = createServer();
    const span = max - min + 1;
    const first = min === 0 ? 0 : Math.floor(Math.random() * span);
    let port = -1;
    for (let i = 0; i < (min === 0 ? 1 : span) && port < 0; i++) {
      const candidate = min === 0 ? 0 : min + ((first + i) % span);
      if (candidate !== 0 && this.usedPassivePorts.has(candidate)) continue;
      port = await new Promise<number>((resolve) => {
        const failed = () => resolve(-1);
        listener.once('error', failed);
        listener.listen(candidate, this.options.host, () => {
          listener.off('error', failed);
          resolve((listener.address() as { port: number }).port);
        });
      });
    }
    if (port < 0) return null;
    this.usedPassivePorts.add(port);
    const closed = new Promise<void>((resolve) =>
      listener.once('close', () => {
        this.usedPassivePorts.delete(port);
        resolve();
      }),
    );
    this.log.debug({ ...log, passivePort: port }, 'FTP passive port opened');

    let timer: NodeJS.Timeout | undefined;
    let taken: Socket | null = null;
    let refuse: (error: Error) => void = () => {};
    const stopListening = () => {
      clearTimeout(timer);
      if (!this.passiveListeners.delete(listener)) return;
      listener.close();
      if (!taken) refuse(new Error('passive port closed'));
    };
    const close = () => {
      stopListening();
      taken?.destroy();
    };
    this.passiveListeners.set(listener, { close, closed });
    const accepted = new Promise<{ socket: Socket; secured: Promise<void> }>((resolve, reject) => {
      refuse = reject;
      timer = setTimeout(stopListening, DATA_CONNECT_TIMEOUT_MS);
      listener.on('connection', (raw: Socket) => {
        raw.on('error', () => {});
        const from = plainAddress(raw.remoteAddress);
        if (taken || ((this.options.sameAddressForData ?? true) && from !== address)) {
          if (!taken)
            this.log.warn({ ...log, from, reason: 'data from another address' }, 'FTP data connection refused');
          raw.destroy();
          return;
        }
        taken = raw;
        stopListening();
        if (!secure) {
          resolve({ socket: raw, secured: Promise.resolve() });
          return;
        }
        const wrapped = new TLSSocket(raw, { isServer: true, secureContext: this.secureContext });
        taken = wrapped;
        wrapped.on('error', () => {});
        const secured = new Promise<void>((done, fail) => {
          wrapped.once('secure', done);
          wrapped.once('error', fail);
          wrapped.once('close', () => fail(new Error('data connection closed during the TLS handshake')));
        });
        secured.catch(() => {});
        resolve({ socket: wrapped, secured });
      });
    });
    // A channel nobody transfers over (PASV, then QUIT) must not leave an unhandled rejection.
    accepted.catch(() => {});
    return { port, accepted, close };
  }

  track<T>(delivery: Promise<T>): Promise<T> {
    this.deliveries.add(delivery);
    delivery.finally(() => this.deliveries.delete(delivery)).catch(() => {});
    return delivery;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => this.server.close(() => resolve()));
      for (const session of this.sessions) session.destroy();
      for (const socket of this.turnedAway) socket.destroy();
      const listeners = [...this.passiveListeners.values()];
      for (const listener of listeners) listener.close();
      await Promise.all([stopped, ...listeners.map((listener) => listener.closed)]);
      await Promise.allSettled([...this.deliveries]);
      this.log.info('FTP ingest closed');
    })();
    return this.closing;
  }
}

interface RememberedFile {
  size: number;
  at: Date;
  /** Bytes of a picture uploaded under another name, kept until it is renamed to a picture's name. */
  held?: Buffer;
}

type Received = { ok: true; bytes: Buffer } | { ok: false; reason: 'too large' | 'connection lost'; bytes: number };

/** One control connection: a camera's login and what it sends. */
class Session {
  readonly ingest: Ingest;
  readonly address: string;
  readonly raw: Socket;
  control: Socket;
  readonly aborted = new AbortController();
  pending: Buffer = Buffer.alloc(0);
  busy = false;
  closed = false;
  /** Said goodbye: nothing more is read from this connection. */
  ending = false;
  tls = false;
  protectedData = false;
  user: string | null = null;
  account: FtpAccount | null = null;
  failedLogins = 0;
  cwd = '/';
  renameFrom: string | null = null;
  /** The channel of the last PASV/EPSV, kept until its transfer is over. */
  passive: PassiveChannel | null = null;
  readonly files = new Map<string, RememberedFile>();
  readonly dirs = new Set<string>();
  loginTimer: NodeJS.Timeout | undefined;
  activeModeLogged = false;

  constructor(ingest: Ingest, socket: Socket, address: string) {
    this.ingest = ingest;
    this.raw = socket;
    this.control = socket;
    this.address = address;
  }

  get log() {
    return this.ingest.log;
  }

  /** Who is on the line, for every log line; never the password. */
  context(): Record<string, unknown> {
    return {
      address: this.address,
      user: this.user ?? undefined,
      camera: this.account?.camera,
      webcamId: this.account?.webcamId,
      tls: this.tls,
    };
  }

  start() {
    const idle = this.ingest.options.idleTimeoutMs ?? 120_000;
    this.raw.setNoDelay(true);
    this.raw.setTimeout(idle);
    this.raw.on('timeout', () => this.hangUp(421, 'Idle too long, closing the connection'));
    this.raw.on('error', (error) => this.log.debug({ ...this.context(), err: error.message }, 'FTP connection error'));
    this.raw.on('close', () => this.destroy());
    this.raw.on('data', this.onData);
    this.loginTimer = setTimeout(
      () => this.hangUp(421, 'Log in within a minute, closing the connection'),
      LOGIN_TIMEOUT_MS,
    );
    this.log.debug(this.context(), 'FTP connection');
    this.reply(220, 'Lakecams picture upload ready');
  }

  destroy() {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.loginTimer);
    this.aborted.abort();
    this.passive?.close();
    this.passive = null;
    this.control.destroy();
    this.raw.destroy();
    this.ingest.sessions.delete(this);
    for (const [fileName, file] of this.files) {
      if (file.held) {
        this.log.warn(
          { ...this.context(), fileName, bytes: file.size, reason: 'never renamed to .jpg, .png or .webp' },
          'FTP upload dropped',
        );
      }
    }
    this.files.clear();
  }

  /** Says why and closes; a camera that does not close its end is cut off after two seconds. */
  hangUp(code: number, text: string) {
    this.reply(code, text);
    this.ending = true;
    this.control.end();
    setTimeout(() => this.destroy(), 2_000).unref();
  }

  reply(code: number, text: string) {
    if (this.control.destroyed || !this.control.writable) return;
    this.control.write(`${code} ${text}\r\n`);
  }

  replyLines(code: number, first: string, lines: string[]) {
    if (this.control.destroyed || !this.control.writable) return;
    this.control.write(`${code}-${first}\r\n${lines.map((line) => ` ${line}\r\n`).join('')}${code} End\r\n`);
  }

  readonly onData = (chunk: Buffer) => {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    if (this.pending.length > MAX_LINE_BYTES * 4) {
      this.pending = Buffer.alloc(0);
      this.hangUp(500, 'Command line too long');
      return;
    }
    void this.pump();
  };

  async pump() {
    if (this.busy) return;
    this.busy = true;
    try {
      while (!this.closed && !this.ending) {
        const end = this.pending.indexOf(0x0a);
        if (end < 0) {
          if (this.pending.length > MAX_LINE_BYTES) {
            this.pending = Buffer.alloc(0);
            this.hangUp(500, 'Command line too long');
          }
          break;
        }
        const line = this.pending.subarray(0, end).toString('utf8').replace(/\r$/, '');
        this.pending = this.pending.subarray(end + 1);
        if (end > MAX_LINE_BYTES) {
          this.reply(500, 'Command line too long');
          continue;
        }
        try {
          await this.handle(line);
        } catch (error) {
          if (this.closed) break;
          this.log.error({ ...this.context(), err: error }, 'FTP command failed');
          this.reply(451, 'Local error, try again');
        }
      }
    } finally {
      this.busy = false;
    }
  }

  async handle(line: string) {
    // Telnet interrupt bytes some clients put before ABOR, and stray blanks.
    const text = line.replace(/^[^A-Za-z]+/, '');
    const space = text.indexOf(' ');
    const verb = (space < 0 ? text : text.slice(0, space)).toUpperCase();
    const arg = space < 0 ? '' : text.slice(space + 1);
    this.log.trace({ ...this.context(), command: verb === 'PASS' ? 'PASS ***' : text.slice(0, 200) }, 'FTP command');
    if (verb === '') return;

    switch (verb) {
      case 'USER':
        return this.userCommand(arg);
      case 'PASS':
        return this.passCommand(arg);
      case 'AUTH':
        return this.authCommand(arg);
      case 'PBSZ':
        if (!this.tls) return this.reply(503, 'PBSZ needs AUTH TLS first');
        return this.reply(200, 'PBSZ=0');
      case 'PROT':
        return this.protCommand(arg);
      case 'FEAT':
        return this.replyLines(211, 'Features:', [
          ...(this.ingest.secureContext ? ['AUTH TLS', 'PBSZ', 'PROT'] : []),
          'EPSV',
          'PASV',
          'SIZE',
          'MDTM',
          'UTF8',
        ]);
      case 'OPTS':
        if (/^UTF-?8(\s+(ON|OFF))?$/i.test(arg.trim())) return this.reply(200, 'Always in UTF8 mode');
        return this.reply(501, 'Option not understood');
      case 'SYST':
        return this.reply(215, 'UNIX Type: L8');
      case 'NOOP':
        return this.reply(200, 'OK');
      case 'CLNT':
        return this.reply(200, 'OK');
      case 'HELP':
        return this.reply(214, 'Upload pictures with STOR; passive mode only');
      case 'QUIT':
        return this.hangUp(221, 'Goodbye');
    }
    if (!this.account) return this.reply(530, 'Please log in with USER and PASS');

    switch (verb) {
      case 'PWD':
      case 'XPWD':
        return this.reply(257, `"${this.cwd.replaceAll('"', '""')}" is the current directory`);
      case 'CWD':
      case 'XCWD': {
        const path = this.resolve(arg);
        if (path === null) return this.reply(550, 'Invalid path');
        this.cwd = path;
        return this.reply(250, `Directory changed to ${path}`);
      }
      case 'CDUP':
      case 'XCUP':
        this.cwd = posix.dirname(this.cwd);
        return this.reply(250, `Directory changed to ${this.cwd}`);
      case 'MKD':
      case 'XMKD': {
        const path = this.resolve(arg);
        if (path === null || arg === '') return this.reply(550, 'Invalid path');
        if (this.dirs.size < 64) this.dirs.add(path);
        return this.reply(257, `"${path.replaceAll('"', '""')}" created`);
      }
      case 'RMD':
      case 'XRMD': {
        const path = this.resolve(arg);
        if (path !== null) this.dirs.delete(path);
        return this.reply(250, 'Directory removed');
      }
      case 'TYPE':
        if (/^(A|A N|I|L 8)$/i.test(arg.trim())) return this.reply(200, `Type set to ${arg.trim().toUpperCase()}`);
        return this.reply(504, 'Type not supported');
      case 'MODE':
        return arg.trim().toUpperCase() === 'S' ? this.reply(200, 'Mode S') : this.reply(504, 'Only stream mode');
      case 'STRU':
        return arg.trim().toUpperCase() === 'F'
          ? this.reply(200, 'Structure F')
          : this.reply(504, 'Only file structure');
      case 'ALLO':
      case 'ACCT':
      case 'SITE':
        return this.reply(202, 'Not needed here');
      case 'REST':
        if (arg.trim() === '0') return this.reply(350, 'Restarting at 0');
        return this.reply(504, 'Resuming uploads is not supported; upload the whole file');
      case 'SIZE':
      case 'MDTM': {
        const path = this.resolve(arg);
        const file = path === null ? undefined : this.files.get(path);
        if (!file) return this.reply(550, 'No such file');
        return verb === 'SIZE' ? this.reply(213, String(file.size)) : this.reply(213, mdtm(file.at));
      }
      case 'DELE': {
        const path = this.resolve(arg);
        if (path !== null) this.files.delete(path);
        return this.reply(250, 'Deleted');
      }
      case 'RNFR': {
        const path = this.resolve(arg);
        if (path === null || !this.files.has(path)) return this.reply(550, 'No such file');
        this.renameFrom = path;
        return this.reply(350, 'Ready for RNTO');
      }
      case 'RNTO':
        return this.renameTo(arg);
      case 'PASV':
      case 'EPSV':
        return this.passiveCommand(verb, arg);
      case 'PORT':
      case 'EPRT':
        if (!this.activeModeLogged) {
          this.activeModeLogged = true;
          this.log.warn(
            { ...this.context(), reason: 'active mode' },
            'FTP active mode refused: set the camera to passive',
          );
        }
        return this.reply(502, 'Active mode is not supported; use passive mode (PASV or EPSV)');
      case 'STOR':
      case 'APPE':
        return this.store(arg, verb === 'APPE');
      case 'LIST':
      case 'NLST':
        return this.list(arg, verb === 'NLST');
      case 'RETR':
        return this.reply(550, 'Uploads only: nothing to download');
      case 'ABOR':
        this.passive?.close();
        this.passive = null;
        return this.reply(225, 'No transfer to abort');
      case 'STAT':
        return this.reply(211, `Logged in as ${this.user}, picture upload`);
    }
    return this.reply(502, 'Command not implemented');
  }

  userCommand(arg: string) {
    if (this.account) return this.reply(530, 'Already logged in');
    const user = arg.trim();
    if (user === '' || user.length > 128) return this.reply(501, 'Invalid user name');
    this.user = user;
    if (this.ingest.options.requireTls && !this.tls) {
      this.log.warn({ ...this.context(), reason: 'TLS required' }, 'FTP login refused: TLS required (AUTH TLS)');
      this.user = null;
      return this.reply(530, 'TLS required: send AUTH TLS before logging in');
    }
    return this.reply(331, 'Password required');
  }

  async passCommand(password: string) {
    if (this.account) return this.reply(230, 'Already logged in');
    const user = this.user;
    if (user === null) return this.reply(503, 'Send USER first');
    try {
      await this.ingest.throttle.wait(this.address, this.aborted.signal);
    } catch {
      return; // connection gone while waiting
    }
    let account: FtpAccount | null;
    try {
      account = await this.ingest.options.authenticate(user, password);
    } catch (error) {
      this.log.error(
        { ...this.context(), err: error instanceof Error ? error.message : String(error) },
        'FTP login could not be checked',
      );
      this.hangUp(421, 'Service not available, try again later');
      return;
    }
    if (this.closed) return;
    if (!account) {
      this.ingest.throttle.failed(this.address);
      this.failedLogins += 1;
      this.log.warn({ ...this.context(), reason: 'unknown user or wrong password' }, 'FTP login refused');
      this.user = null;
      this.reply(530, 'Login incorrect');
      if (this.failedLogins >= MAX_FAILED_LOGINS_PER_CONNECTION) this.hangUp(421, 'Too many failed logins');
      return;
    }
    this.account = account;
    clearTimeout(this.loginTimer);
    this.log.debug(this.context(), 'FTP login');
    return this.reply(230, 'Logged in');
  }

  authCommand(arg: string) {
    const secureContext = this.ingest.secureContext;
    if (!/^(TLS|TLS-C|SSL)$/i.test(arg.trim())) return this.reply(504, 'Only AUTH TLS is supported');
    if (!secureContext) return this.reply(502, 'TLS is not available on this server');
    if (this.tls) return this.reply(503, 'TLS already in use');
    if (this.account) return this.reply(503, 'AUTH must come before the login');
    this.reply(234, 'AUTH TLS successful');
    // Anything sent after AUTH in plain text could be injected on the way: drop it, and a USER before.
    this.pending = Buffer.alloc(0);
    this.user = null;
    this.raw.off('data', this.onData);
    const secure = new TLSSocket(this.raw, { isServer: true, secureContext });
    secure.on('error', (error) => {
      this.log.warn({ ...this.context(), err: error.message }, 'FTP TLS handshake or connection failed');
      this.destroy();
    });
    secure.on('close', () => this.destroy());
    secure.on('data', this.onData);
    this.control = secure;
    this.tls = true;
  }

  protCommand(arg: string) {
    if (!this.tls) return this.reply(503, 'PROT needs AUTH TLS first');
    const level = arg.trim().toUpperCase();
    if (level === 'P') {
      this.protectedData = true;
      return this.reply(200, 'Data channel protected');
    }
    if (level === 'C') {
      if (this.ingest.options.requireTls) return this.reply(534, 'Data connections must be protected (PROT P)');
      this.protectedData = false;
      return this.reply(200, 'Data channel in clear');
    }
    return this.reply(536, 'Only PROT P and PROT C are supported');
  }

  async passiveCommand(verb: 'PASV' | 'EPSV', arg: string) {
    if (verb === 'EPSV' && arg.trim().toUpperCase() === 'ALL') return this.reply(200, 'EPSV ALL ok');
    if (verb === 'EPSV' && !['', '1', '2'].includes(arg.trim()))
      return this.reply(522, 'Protocol not supported, use (1,2)');
    let host: string | null = null;
    if (verb === 'PASV') {
      host = this.ingest.announced ?? plainAddress(this.raw.localAddress);
      if (!isIPv4(host)) return this.reply(425, 'PASV needs IPv4; use EPSV');
    }
    this.passive?.close();
    this.passive = null;
    const channel = await this.ingest.openPassive(this.address, this.protectedData, this.context());
    if (this.closed) {
      channel?.close();
      return;
    }
    if (!channel) {
      this.log.warn(
        { ...this.context(), passivePorts: this.ingest.options.passivePorts },
        'FTP passive ports all in use',
      );
      return this.reply(425, 'No passive port free, try again later');
    }
    this.passive = channel;
    if (verb === 'EPSV') return this.reply(229, `Entering Extended Passive Mode (|||${channel.port}|)`);
    return this.reply(
      227,
      `Entering Passive Mode (${host?.replaceAll('.', ',')},${channel.port >> 8},${channel.port & 255})`,
    );
  }

  /** Waits for the data connection of the last PASV/EPSV and says 150; null when there is none (already answered). */
  async openData(): Promise<Socket | null> {
    const channel = this.passive;
    if (!channel) {
      this.reply(425, 'Use PASV or EPSV first');
      return null;
    }
    if (this.ingest.options.requireTls && !this.protectedData) {
      this.endData();
      this.reply(521, 'Data connections must be protected (PROT P)');
      return null;
    }
    let connection: { socket: Socket; secured: Promise<void> };
    try {
      connection = await channel.accepted;
    } catch {
      this.endData();
      if (!this.closed) this.reply(425, 'No data connection');
      return null;
    }
    if (this.closed) return null;
    // 150 before the TLS handshake: some clients start it only after this reply.
    this.reply(150, 'Data connection open');
    try {
      await connection.secured;
    } catch (error) {
      this.log.warn(
        { ...this.context(), err: error instanceof Error ? error.message : String(error) },
        'FTP data connection TLS failed',
      );
      this.endData();
      this.reply(425, 'TLS on the data connection failed');
      return null;
    }
    return connection.socket;
  }

  /** The transfer is over: its data connection ends and a new PASV/EPSV is needed. */
  endData() {
    this.passive?.close();
    this.passive = null;
  }

  /** Reads an upload into memory, aborting it as soon as it grows over `maxBytes`. */
  receive(socket: Socket, start: Buffer | undefined): Promise<Received> {
    const maxBytes = this.ingest.options.maxBytes;
    return new Promise((resolve) => {
      const chunks: Buffer[] = start ? [start] : [];
      let size = start?.length ?? 0;
      let done = false;
      const finish = (result: Received) => {
        if (done) return;
        done = true;
        socket.removeAllListeners('data');
        resolve(result);
      };
      socket.setTimeout(DATA_IDLE_TIMEOUT_MS, () => socket.destroy());
      socket.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          socket.destroy();
          finish({ ok: false, reason: 'too large', bytes: size });
          return;
        }
        chunks.push(chunk);
      });
      socket.once('end', () => {
        finish({ ok: true, bytes: Buffer.concat(chunks, size) });
        socket.end();
      });
      socket.once('close', () => finish({ ok: false, reason: 'connection lost', bytes: size }));
    });
  }

  async store(arg: string, append: boolean) {
    const path = this.resolve(arg);
    if (path === null || arg === '' || path === '/') {
      this.passive?.close();
      this.passive = null;
      return this.reply(553, 'Invalid file name');
    }
    const previous = append ? this.files.get(path)?.held : undefined;
    const socket = await this.openData();
    if (!socket) return;
    const account = this.account as FtpAccount;
    const transfer = { ...this.context(), fileName: path, protectedData: this.protectedData };
    this.raw.setTimeout(0);
    const received = await this.receive(socket, previous);
    this.raw.setTimeout(this.ingest.options.idleTimeoutMs ?? 120_000);
    if (this.closed) return;
    // A finished upload's connection ends by itself (both sides sent their end, TLS its close_notify).
    if (received.ok) this.passive = null;
    else this.endData();
    if (!received.ok) {
      if (received.reason === 'too large') {
        const maxBytes = this.ingest.options.maxBytes;
        this.log.warn({ ...transfer, reason: 'too large', maxBytes }, 'FTP upload refused');
        return this.reply(552, `Upload larger than ${maxBytes} bytes: aborted`);
      }
      this.log.warn({ ...transfer, reason: 'connection lost', bytes: received.bytes }, 'FTP upload incomplete');
      return this.reply(426, 'Data connection lost, upload aborted');
    }
    const bytes = received.bytes;
    const kind = await classify(path, bytes);
    const log = { ...transfer, bytes: bytes.length };
    switch (kind.kind) {
      case 'sidecar':
        this.remember(path, { size: bytes.length, at: new Date() });
        this.log.debug({ ...log, reason: kind.reason }, 'FTP upload dropped');
        return this.reply(226, 'Received, not a picture: dropped');
      case 'refused':
        this.log.warn({ ...log, reason: kind.reason }, 'FTP upload refused');
        return kind.reason === 'not a picture'
          ? this.reply(550, 'Not a picture (JPEG, PNG or WebP): refused')
          : this.reply(552, PICTURE_TOO_LARGE_MESSAGE);
      case 'held':
        this.remember(path, { size: bytes.length, at: new Date(), held: bytes });
        this.log.debug(log, 'FTP upload kept until renamed to a picture name');
        return this.reply(226, 'Received');
      case 'picture':
        if (await this.deliver(account, bytes, path, log)) {
          this.remember(path, { size: bytes.length, at: new Date() });
          return this.reply(226, 'Picture received');
        }
        return this.reply(451, 'Picture not taken, try again later');
    }
  }

  async deliver(account: FtpAccount, bytes: Buffer, path: string, log: object): Promise<boolean> {
    try {
      await this.ingest.track(this.ingest.options.onPicture(account, bytes, path));
      this.log.info(log, 'FTP picture received');
      return true;
    } catch (error) {
      this.log.error({ ...log, err: error instanceof Error ? error.message : String(error) }, 'FTP picture not taken');
      return false;
    }
  }

  async renameTo(arg: string) {
    const from = this.renameFrom;
    this.renameFrom = null;
    if (from === null) return this.reply(503, 'Send RNFR first');
    const to = this.resolve(arg);
    const file = this.files.get(from);
    if (to === null || arg === '') return this.reply(553, 'Invalid file name');
    if (!file) return this.reply(550, 'No such file');
    this.files.delete(from);
    const held = file.held;
    if (!held || isSidecarName(to)) {
      this.remember(to, { size: file.size, at: file.at });
      return this.reply(250, 'Renamed');
    }
    if (!isPictureName(to)) {
      this.remember(to, file);
      return this.reply(250, 'Renamed');
    }
    const log = { ...this.context(), fileName: to, renamedFrom: from, bytes: held.length };
    if (await this.deliver(this.account as FtpAccount, held, to, log)) {
      this.remember(to, { size: file.size, at: file.at });
      return this.reply(250, 'Renamed, picture received');
    }
    return this.reply(451, 'Picture not taken, try again later');
  }

  /** Keeps the last files for SIZE, LIST and RNFR; at most a few held pictures in memory. */
  remember(path: string, file: RememberedFile) {
    this.files.delete(path);
    this.files.set(path, file);
    const held = [...this.files].filter(([, entry]) => entry.held);
    for (const [name, entry] of held.slice(0, Math.max(0, held.length - HELD_FILES))) {
      this.log.warn(
        { ...this.context(), fileName: name, bytes: entry.size, reason: 'never renamed to .jpg, .png or .webp' },
        'FTP upload dropped',
      );
      this.files.delete(name);
    }
    for (const name of this.files.keys()) {
      if (this.files.size <= REMEMBERED_FILES) break;
      this.files.delete(name);
    }
  }

  async list(arg: string, namesOnly: boolean) {
    const target = arg
      .split(' ')
      .filter((part) => part !== '' && !part.startsWith('-'))
      .join(' ');
    const path = this.resolve(target);
    const socket = await this.openData();
    if (!socket) return;
    const entries: { name: string; file?: RememberedFile }[] = [];
    const file = path === null ? undefined : this.files.get(path);
    if (path !== null && file) {
      entries.push({ name: posix.basename(path), file });
    } else if (path !== null) {
      for (const dir of this.dirs)
        if (posix.dirname(dir) === path && dir !== path) entries.push({ name: posix.basename(dir) });
      for (const [name, entry] of this.files) {
        if (posix.dirname(name) === path) entries.push({ name: posix.basename(name), file: entry });
      }
    }
    const text = entries
      .map(({ name, file: entry }) =>
        namesOnly
          ? `${name}\r\n`
          : `${entry ? '-rw-r--r--' : 'drwxr-xr-x'} 1 ftp ftp ${entry?.size ?? 0} ${lsDate(entry?.at ?? new Date())} ${name}\r\n`,
      )
      .join('');
    // Done when the camera has read it all and closed (TLS: after close_notify); the idle timeout bounds the wait.
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.setTimeout(DATA_IDLE_TIMEOUT_MS, () => socket.destroy());
      socket.end(text);
    });
    this.endData();
    this.reply(226, 'Listing sent');
  }

  /** A camera's path as an absolute virtual path, or null when it cannot be one. */
  resolve(arg: string): string | null {
    if (arg.length > MAX_PATH || arg.includes('\0')) return null;
    const slashed = arg.replaceAll('\\', '/');
    const joined = slashed.startsWith('/') ? slashed : `${this.cwd}/${slashed}`;
    const normal = posix.normalize(joined);
    return normal.length > 1 && normal.endsWith('/') ? normal.slice(0, -1) : normal;
  }
}

function extensionOf(path: string): string {
  return posix.extname(posix.basename(path)).toLowerCase();
}

function isPictureName(path: string): boolean {
  return PICTURE_EXTENSIONS.has(extensionOf(path));
}

function isSidecarName(path: string): boolean {
  return SIDECAR_EXTENSIONS.has(extensionOf(path.replace(TEMPORARY_SUFFIX, '')));
}

/** The picture formats by their first bytes, limited to those the pipeline takes. */
function sniffFormat(bytes: Buffer): string | null {
  let format: string | null = null;
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) format = 'jpeg';
  else if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    format = 'png';
  else if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  )
    format = 'webp';
  return format !== null && PICTURE_FORMATS.includes(format) ? format : null;
}

type Classified =
  | { kind: 'picture' | 'held' }
  | { kind: 'sidecar'; reason: string }
  | { kind: 'refused'; reason: 'not a picture' | 'too many pixels' };

/** What an upload is: by its name for sidecars, by its bytes (magic and header) for everything else. */
async function classify(path: string, bytes: Buffer): Promise<Classified> {
  if (isSidecarName(path)) return { kind: 'sidecar', reason: 'sidecar file' };
  if (bytes.length === 0) return { kind: 'sidecar', reason: 'empty file' };
  const format = sniffFormat(bytes);
  if (!format) return { kind: 'refused', reason: 'not a picture' };
  try {
    const header = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (header.format !== format) return { kind: 'refused', reason: 'not a picture' };
    if (exceedsPictureLimit(header)) return { kind: 'refused', reason: 'too many pixels' };
  } catch {
    return { kind: 'refused', reason: 'not a picture' };
  }
  return { kind: isPictureName(path) ? 'picture' : 'held' };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

function lsDate(at: Date): string {
  return `${MONTHS[at.getUTCMonth()]} ${two(at.getUTCDate())} ${two(at.getUTCHours())}:${two(at.getUTCMinutes())}`;
}

function mdtm(at: Date): string {
  return `${at.getUTCFullYear()}${two(at.getUTCMonth() + 1)}${two(at.getUTCDate())}${two(at.getUTCHours())}${two(at.getUTCMinutes())}${two(at.getUTCSeconds())}`;
}
