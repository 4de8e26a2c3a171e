import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NATIVE_MEMORY_ENV } from '@lakecams/service-kit';
import { DEMO_CAMERAS } from '@lakecams/svc-webcam/testing';
import { freePort } from './browser.ts';
import { signedInApi } from './portal-api.ts';
import { groupAlive } from './process-group.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Run {
  process: ChildProcess;
  output: () => string;
}

/** `npm start` as the README has it, in its own process group like a terminal's foreground job. */
/** Every group started, so that one that never came up is stopped too. */
const spawned: ChildProcess[] = [];

async function npmStart(env: Record<string, string>): Promise<Run> {
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  spawned.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not come up:\n${output}`)), 120_000);
    child.stdout?.on('data', () => {
      if (output.includes('running at')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`npm start exited:\n${output}`));
    });
  });
  return { process: child, output: () => output };
}

/** Ctrl-C or a stop signal to the whole group; resolves once the portal said it stopped and exited. */
async function stop(run: Run | undefined, signal: NodeJS.Signals): Promise<void> {
  if (!run) throw new Error('The portal was not started');
  const exited = new Promise((resolve) => run.process.once('exit', resolve));
  process.kill(-(run.process.pid as number), signal);
  await exited;
  // npm ends with the signal it passed on; the portal's own process group must be empty as well.
  await expect.poll(() => groupAlive(run.process.pid as number), { timeout: 20_000 }).toBe(false);
}

/** The environment of the group's Node process running scripts/start.ts (not the shell npm starts it with). */
function portalEnvironment(pgid: number): Record<string, string> {
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (group !== pgid || !/node\0scripts\/start\.ts\0/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))) continue;
      const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
      return Object.fromEntries(
        pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
      );
    } catch {
      // A process that ended meanwhile.
    }
  }
  throw new Error(`no scripts/start.ts in process group ${pgid}`);
}

function postgresRunning(dataDir: string): boolean {
  // PostgreSQL removes postmaster.pid when it has shut down.
  return existsSync(join(dataDir, 'postgres', 'postmaster.pid'));
}

async function cameraNames(url: string, token: string): Promise<string[]> {
  const response = await fetch(`${url}/api/Webcam/GetCameras`, { headers: { authorization: `Bearer ${token}` } });
  const cameras = (await response.json()) as { name: string }[];
  return cameras.map((camera) => camera.name);
}

/** The FTP server's greeting and its first answer to each command, then the connection is closed. */
async function ftpAnswers(port: number, commands: string[]): Promise<string[]> {
  const socket = connect(port, '127.0.0.1');
  socket.setEncoding('utf8');
  const lines: string[] = [];
  let buffer = '';
  try {
    for (const command of [null, ...commands]) {
      if (command) socket.write(`${command}\r\n`);
      const line = await new Promise<string>((resolve, reject) => {
        const onData = (chunk: string) => {
          buffer += chunk;
          const end = buffer.indexOf('\r\n');
          if (end < 0) return;
          socket.off('data', onData);
          const first = buffer.slice(0, end);
          buffer = '';
          resolve(first);
        };
        socket.on('data', onData);
        socket.once('error', reject);
      });
      lines.push(line);
    }
  } finally {
    socket.destroy();
  }
  return lines;
}

describe('npm start: one command, one process, and a clean stop', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let url: string;
  let ftpPort: number;
  let admin: { username: string; password: string };
  let run: Run | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'lakecams-npm-start-'));
    const port = await freePort();
    url = `http://localhost:${port}`;
    ftpPort = await freePort();
    env = {
      PORT: String(port),
      FTP_PORT: String(ftpPort),
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
    };
  });

  afterAll(async () => {
    for (const child of spawned) if (child.pid && groupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
    if (existsSync(join(dataDir, 'postgres', 'postmaster.pid'))) {
      const pid = Number((await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
      process.kill(pid, 'SIGINT');
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a partial first administrator with a message, before touching anything', async () => {
    const result = spawnSync('npm', ['start'], {
      cwd: ROOT,
      env: { ...process.env, ...env, ADMIN_USERNAME: 'seeadmin' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'Set ADMIN_USERNAME, ADMIN_EMAIL and ADMIN_PASSWORD together, or none of them: ADMIN_EMAIL, ADMIN_PASSWORD missing',
    );
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(join(dataDir, 'postgres'))).toBe(false);
  });

  it('starts the portal with embedded PostgreSQL, prints its URL and the demo administrator once', async () => {
    run = await npmStart(env);
    expect(run.output()).toContain(`Lake webcam portal running at ${url}`);
    const printed = /Demo administrator created: username (\S+), password (\S+)/.exec(run.output());
    expect(printed).not.toBeNull();
    admin = { username: printed?.[1] as string, password: printed?.[2] as string };
    expect(postgresRunning(dataDir)).toBe(true);
    // The portal's process started with the malloc settings (glibc reads them only then).
    expect(portalEnvironment(run.process.pid as number)).toMatchObject(NATIVE_MEMORY_ENV);

    expect((await fetch(`${url}/health`)).status).toBe(200);
    const ready = await fetch(`${url}/ready`);
    expect(ready.status).toBe(200);
    expect(Object.values(((await ready.json()) as { checks: Record<string, boolean> }).checks)).not.toContain(false);
    const page = await fetch(`${url}/webcams`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('id="shell-header"');
    // The demo cameras' first pictures arrive within moments of the start.
    const listed = async () => ((await (await fetch(`${url}/api/Webcam/GetImages`)).json()) as unknown[]).length;
    await expect.poll(listed, { timeout: 60_000 }).toBe(DEMO_CAMERAS.length);

    const api = await signedInApi(url, admin);
    await api.post('/api/Webcam/Set', {
      name: 'Seebad-Kuesnacht',
      pattern: 'https://cam.example/kuesnacht.jpg',
      distance: 3,
      angle: 90,
      intervalMin: 10,
      webcamType: 'STATIC',
    });
    expect(await cameraNames(url, api.user.jwtToken)).toContain('Seebad-Kuesnacht');
    // Cameras that push find the FTP ingest, with FTPS by the certificate made for the data folder.
    expect(await ftpAnswers(ftpPort, ['AUTH TLS'])).toEqual([
      expect.stringMatching(/^220 /),
      expect.stringMatching(/^234 /),
    ]);
    expect(existsSync(join(dataDir, 'ftp-tls.crt'))).toBe(true);
  });

  it('stops everything on Ctrl-C, PostgreSQL included, without errors', async () => {
    await stop(run, 'SIGINT');
    expect(run?.output()).toContain('Stopping the portal (SIGINT)');
    expect(run?.output()).not.toMatch(/"level":(40|50|60)(?![^\n]*demo administrator created)/);
    expect(postgresRunning(dataDir)).toBe(false);
  });

  it('reuses the data on the next start: same cameras, same administrator, no new credentials', async () => {
    run = await npmStart(env);
    expect(run.output()).not.toContain('Demo administrator created');
    const api = await signedInApi(url, admin);
    const names = await cameraNames(url, api.user.jwtToken);
    expect(names).toContain('Seebad-Kuesnacht');
    expect(names).toHaveLength(DEMO_CAMERAS.length + 1);
  });

  it('stops on SIGTERM too', async () => {
    await stop(run, 'SIGTERM');
    expect(run?.output()).toContain('Stopping the portal (SIGTERM)');
    expect(postgresRunning(dataDir)).toBe(false);
  });

  it('recovers when an earlier run was killed and left PostgreSQL running', async () => {
    run = await npmStart(env);
    process.kill(-(run.process.pid as number), 'SIGKILL');
    await expect.poll(() => groupAlive(run?.process.pid as number)).toBe(false);
    // PostgreSQL runs in its own session, so it outlives a killed portal.
    expect(postgresRunning(dataDir)).toBe(true);

    run = await npmStart(env);
    expect(run.output()).toContain('earlier run left running');
    expect((await fetch(`${url}/ready`)).status).toBe(200);
    await stop(run, 'SIGINT');
    expect(postgresRunning(dataDir)).toBe(false);
    expect(execFileSync('ls', [join(dataDir, 'postgres')]).toString()).toContain('PG_VERSION');
  });
});
