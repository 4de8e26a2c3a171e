import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Client, enterPassiveModeIPv4, type FTPError } from 'basic-ftp';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FtpAccount, type FtpIngestOptions, startFtpIngest } from '../src/push/ftp-ingest.ts';

// Real FTP and FTPS over loopback: basic-ftp uploads to the server each test starts and closes.
const PASSWORD = 'Rapperswil-Upload-7Qz!';
const WRONG_PASSWORD = 'Guessed-Wrong-4711?';
const UNKNOWN_PASSWORD = 'Nobody-Knows-0815%';
const ACCOUNT: FtpAccount = { webcamId: 7, camera: 'Rapperswil-Seedamm' };

let tlsDir: string;
let tls: { key: string; cert: string };
let jpeg: Buffer;

beforeAll(async () => {
  tlsDir = mkdtempSync(join(tmpdir(), 'ftp-ingest-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      join(tlsDir, 'key.pem'),
      '-out',
      join(tlsDir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  tls = { key: readFileSync(join(tlsDir, 'key.pem'), 'utf8'), cert: readFileSync(join(tlsDir, 'cert.pem'), 'utf8') };
  jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2f6f8f' } })
    .jpeg()
    .toBuffer();
});

afterAll(() => {
  rmSync(tlsDir, { recursive: true, force: true });
});

interface Started {
  port: number;
  pictures: { account: FtpAccount; bytes: Buffer; fileName: string }[];
  logged: string[];
  close(): Promise<void>;
}

const running: Started[] = [];
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function start(options: Partial<FtpIngestOptions> = {}): Promise<Started> {
  const pictures: Started['pictures'] = [];
  const logged: string[] = [];
  const server = await startFtpIngest({
    host: '127.0.0.1',
    port: 0,
    passivePorts: { min: 0, max: 0 },
    publicHost: '127.0.0.1',
    maxBytes: 1024 * 1024,
    loginThrottle: { baseMs: 20, maxMs: 100 },
    authenticate: async (user, password) => (user === 'rapperswil' && password === PASSWORD ? ACCOUNT : null),
    onPicture: async (account, bytes, fileName) => {
      pictures.push({ account, bytes, fileName });
    },
    log: pino({ level: 'trace' }, { write: (line: string) => logged.push(line) }),
    ...options,
  });
  const started = { port: server.port, pictures, logged, close: () => server.close() };
  running.push(started);
  return started;
}

async function connect(
  server: Started,
  { secure = false, user = 'rapperswil', password = PASSWORD } = {},
): Promise<Client> {
  const client = new Client(5_000);
  clients.push(client);
  await client.access({
    host: '127.0.0.1',
    port: server.port,
    user,
    password,
    secure,
    secureOptions: secure ? { ca: tls.cert } : undefined,
  });
  return client;
}

const bytesOf = (buffer: Buffer) => Readable.from([buffer]);

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function warnings(server: Started) {
  return server.logged.map((line) => JSON.parse(line)).filter((line) => line.level >= 40);
}

describe('FTP picture ingest', () => {
  it('takes a picture uploaded over plain FTP', async () => {
    const server = await start();
    const client = await connect(server);
    await client.uploadFrom(bytesOf(jpeg), 'snapshot.jpg');
    expect(server.pictures).toHaveLength(1);
    expect(server.pictures[0]?.account).toEqual(ACCOUNT);
    expect(server.pictures[0]?.fileName).toBe('/snapshot.jpg');
    expect(server.pictures[0]?.bytes.equals(jpeg)).toBe(true);
  });

  it('takes a picture uploaded over explicit FTPS, the data channel protected', async () => {
    const server = await start({ tls });
    const client = await connect(server, { secure: true });
    await client.uploadFrom(bytesOf(jpeg), 'secure.jpg');
    expect(server.pictures.map((picture) => picture.fileName)).toEqual(['/secure.jpg']);
    expect(server.pictures[0]?.bytes.equals(jpeg)).toBe(true);
    expect((await client.list()).map((file) => [file.name, file.size])).toEqual([['secure.jpg', jpeg.length]]);
    const received = server.logged.map((line) => JSON.parse(line)).find((line) => line.fileName === '/secure.jpg');
    expect(received).toMatchObject({ camera: ACCOUNT.camera, tls: true, protectedData: true });
  });

  it('refuses a plain login when TLS is required, and takes the same login over FTPS', async () => {
    const server = await start({ tls, requireTls: true });
    const refused = await connect(server).catch((error: FTPError) => error);
    expect(refused).toMatchObject({ code: 530 });
    expect(warnings(server).some((line) => line.user === 'rapperswil' && /TLS/.test(line.msg))).toBe(true);

    const client = await connect(server, { secure: true });
    await client.uploadFrom(bytesOf(jpeg), 'after-tls.jpg');
    expect(server.pictures.map((picture) => picture.fileName)).toEqual(['/after-tls.jpg']);
  });

  it('refuses a wrong password and an unknown user, logs both without any password, and slows the address down', async () => {
    const server = await start({ loginThrottle: { baseMs: 150, maxMs: 1_000 } });
    const wrong = await connect(server, { password: WRONG_PASSWORD }).catch((error: FTPError) => error);
    expect(wrong).toMatchObject({ code: 530 });
    const unknown = await connect(server, { user: 'nobody', password: UNKNOWN_PASSWORD }).catch(
      (error: FTPError) => error,
    );
    expect(unknown).toMatchObject({ code: 530 });
    // Two failures from this address: the third attempt waits 2 × 150 ms before it is answered.
    const began = Date.now();
    const third = await connect(server, { password: WRONG_PASSWORD }).catch((error: FTPError) => error);
    expect(third).toMatchObject({ code: 530 });
    expect(Date.now() - began).toBeGreaterThanOrEqual(280);
    // The right password still works (after its wait).
    await connect(server);
    expect(server.pictures).toEqual([]);

    const refusals = warnings(server).filter((line) => /login refused/i.test(line.msg));
    expect(refusals.map((line) => line.user)).toEqual(['rapperswil', 'nobody', 'rapperswil']);
    expect(refusals.every((line) => line.address === '127.0.0.1')).toBe(true);
    const everything = server.logged.join('\n');
    for (const password of [PASSWORD, WRONG_PASSWORD, UNKNOWN_PASSWORD]) expect(everything).not.toContain(password);
  }, 15_000);

  it('refuses a file that is no picture whatever its name, and drops a sidecar text file', async () => {
    const server = await start();
    const client = await connect(server);
    const refused = await client
      .uploadFrom(bytesOf(Buffer.from('#!/bin/sh\necho not a picture\n')), 'fake.jpg')
      .catch((error: FTPError) => error);
    expect(refused).toMatchObject({ code: 550 });
    // A sidecar is taken and dropped, even with a picture inside: cameras expect it to succeed.
    await client.uploadFrom(bytesOf(Buffer.from('temperature=12.5\n')), 'info.txt');
    await client.uploadFrom(bytesOf(jpeg), 'meta.xml');
    expect(server.pictures).toEqual([]);
    expect(warnings(server)).toEqual([
      expect.objectContaining({ camera: ACCOUNT.camera, fileName: '/fake.jpg', reason: 'not a picture' }),
    ]);
    // The session goes on.
    await client.uploadFrom(bytesOf(jpeg), 'real.jpg');
    expect(server.pictures.map((picture) => picture.fileName)).toEqual(['/real.jpg']);
  });

  it('aborts an upload over maxBytes and keeps serving', async () => {
    const server = await start({ maxBytes: 64 * 1024 });
    const client = await connect(server);
    const big = Buffer.concat([jpeg.subarray(0, 4), Buffer.alloc(2 * 1024 * 1024, 7)]);
    const refused = await client.uploadFrom(bytesOf(big), 'huge.jpg').catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
    expect(server.pictures).toEqual([]);
    await vi.waitFor(() =>
      expect(warnings(server)).toContainEqual(
        expect.objectContaining({
          camera: ACCOUNT.camera,
          fileName: '/huge.jpg',
          reason: 'too large',
          maxBytes: 65536,
        }),
      ),
    );
    const again = await connect(server);
    await again.uploadFrom(bytesOf(jpeg), 'small.jpg');
    expect(server.pictures.map((picture) => picture.fileName)).toEqual(['/small.jpg']);
  });

  it('takes pictures uploaded into folders and under a temporary name renamed to .jpg', async () => {
    const server = await start();
    const client = await connect(server);
    await client.ensureDir('/webcam/2026/11');
    await client.uploadFrom(bytesOf(jpeg), 'folder.jpg');
    expect(server.pictures.map((picture) => picture.fileName)).toEqual(['/webcam/2026/11/folder.jpg']);

    await client.uploadFrom(bytesOf(jpeg), 'renamed.jpg.tmp');
    expect(server.pictures).toHaveLength(1);
    expect((await client.size('renamed.jpg.tmp')) === jpeg.length).toBe(true);
    await client.rename('renamed.jpg.tmp', 'renamed.jpg');
    expect(server.pictures.map((picture) => picture.fileName)).toEqual([
      '/webcam/2026/11/folder.jpg',
      '/webcam/2026/11/renamed.jpg',
    ]);
    expect(server.pictures[1]?.bytes.equals(jpeg)).toBe(true);
  });

  it('answers the commands camera firmwares send', async () => {
    const server = await start();
    const client = await connect(server);
    const send = (command: string) => client.sendIgnoringError(command);
    const features = (await send('FEAT')).message;
    for (const feature of ['EPSV', 'PASV', 'SIZE', 'UTF8']) expect(features).toContain(feature);
    expect(features).not.toContain('AUTH TLS'); // no certificate: plain FTP only
    expect((await send('SYST')).code).toBe(215);
    expect((await send('PWD')).message).toContain('"/"');
    expect((await send('MKD upload')).code).toBe(257);
    expect((await send('CWD upload')).code).toBe(250);
    expect((await send('PWD')).message).toContain('"/upload"');
    expect((await send('TYPE A')).code).toBe(200);
    expect((await send('TYPE I')).code).toBe(200);
    expect((await send('NOOP')).code).toBe(200);
    expect((await send('OPTS UTF8 ON')).code).toBe(200);
    expect(await client.list()).toEqual([]);
    await client.appendFrom(bytesOf(jpeg), 'appended.jpg');
    expect(await client.size('appended.jpg')).toBe(jpeg.length);
    expect((await client.list()).map((file) => file.name)).toEqual(['appended.jpg']);
    expect((await send('DELE appended.jpg')).code).toBe(250);
    expect((await send('SIZE appended.jpg')).code).toBe(550);
    expect((await send('RETR anything.jpg')).code).toBe(550);
    expect((await send('PORT 127,0,0,1,4,1')).code).toBe(502);
    expect((await send('CDUP')).code).toBe(250);
    expect((await send('PWD')).message).toContain('"/"');
    expect(server.pictures.map((picture) => picture.fileName)).toEqual(['/upload/appended.jpg']);
    expect((await send('QUIT')).code).toBe(221);
  });

  it('opens data connections only in the passive port range and announces the public host', async () => {
    const min = await freePort();
    const server = await start({ passivePorts: { min, max: min + 2 }, publicHost: '127.0.0.1' });
    const client = await connect(server);
    const epsv = await client.send('EPSV');
    const epsvPort = Number(/\(\|\|\|(\d+)\|\)/.exec(epsv.message)?.[1]);
    expect(epsvPort).toBeGreaterThanOrEqual(min);
    expect(epsvPort).toBeLessThanOrEqual(min + 2);
    // Uploads over EPSV (basic-ftp's first choice) and PASV, each in the range.
    await client.uploadFrom(bytesOf(jpeg), 'epsv.jpg');
    client.prepareTransfer = enterPassiveModeIPv4;
    await client.uploadFrom(bytesOf(jpeg), 'pasv.jpg');
    expect(server.pictures.map((picture) => picture.fileName)).toEqual(['/epsv.jpg', '/pasv.jpg']);
    const opened = server.logged
      .map((line) => JSON.parse(line))
      .filter((line) => line.passivePort !== undefined)
      .map((line) => line.passivePort);
    expect(opened.length).toBeGreaterThanOrEqual(3);
    for (const port of opened) expect(port >= min && port <= min + 2).toBe(true);

    // Behind NAT the announced address is the public one, not the one the server listens on.
    const natted = await start({ passivePorts: { min, max: min + 2 }, publicHost: '203.0.113.9' });
    const natClient = await connect(natted);
    const pasv = await natClient.send('PASV');
    const [, a, b, c, d, high, low] = /\((\d+),(\d+),(\d+),(\d+),(\d+),(\d+)\)/.exec(pasv.message) ?? [];
    expect([a, b, c, d].join('.')).toBe('203.0.113.9');
    const pasvPort = Number(high) * 256 + Number(low);
    expect(pasvPort >= min && pasvPort <= min + 2).toBe(true);
  });

  it('refuses a data connection from another address than the camera', async () => {
    const server = await start();
    const client = await connect(server);
    const epsv = await client.send('EPSV');
    const dataPort = Number(/\(\|\|\|(\d+)\|\)/.exec(epsv.message)?.[1]);
    // Another host racing for the announced port (127.0.0.2 is loopback too, but not the camera's address).
    const intruder = new Socket();
    intruder.on('error', () => {});
    await new Promise<void>((resolve) => {
      intruder.once('close', () => resolve());
      intruder.connect({ port: dataPort, host: '127.0.0.1', localAddress: '127.0.0.2' });
    });
    expect(warnings(server)).toContainEqual(
      expect.objectContaining({ from: '127.0.0.2', address: '127.0.0.1', reason: 'data from another address' }),
    );
    await client.uploadFrom(bytesOf(jpeg), 'after-intruder.jpg');
    expect(server.pictures.map((picture) => picture.fileName)).toEqual(['/after-intruder.jpg']);
  });

  it('close() ends every connection and listener', async () => {
    // Sockets and listeners are released a moment after their 'close': wait for the earlier tests' to go.
    const tcpHandles = () => process.getActiveResourcesInfo().filter((kind) => kind.startsWith('TCP'));
    await vi.waitFor(() => expect(tcpHandles()).toEqual([]));
    const min = await freePort();
    const server = await start({ passivePorts: { min, max: min } });
    const client = await connect(server);
    const pasv = await client.send('EPSV'); // leaves a passive listener open
    const dataPort = Number(/\(\|\|\|(\d+)\|\)/.exec(pasv.message)?.[1]);
    expect(dataPort).toBe(min);
    await running.splice(running.indexOf(server), 1)[0]?.close();
    await vi.waitFor(() => expect(client.closed).toBe(true));
    await vi.waitFor(() => expect(tcpHandles()).toEqual([]));
    for (const port of [server.port, dataPort]) {
      const refused = await new Promise<string>((resolve) => {
        const socket = new Socket();
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? ''));
        socket.connect(port, '127.0.0.1', () => {
          socket.destroy();
          resolve('connected');
        });
      });
      expect(refused).toBe('ECONNREFUSED');
    }
  });
});
