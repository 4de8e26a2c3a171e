import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REMOTES } from '@lakecams/contracts';
import { DEMO_CAMERAS } from '@lakecams/svc-webcam/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePagesAfterEachTest, DESKTOP, freePort, launchChromium, watchPageErrors } from './browser.ts';
import { ARTIFACTS, seedEmbeddedPostgres } from './embedded-portal.ts';
import { groupAlive } from './process-group.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('npm run dev: the whole portal with every app from its dev server', () => {
  let dataDir: string;
  let child: ChildProcess | undefined;
  let output = '';
  let page: string;
  let portal: string;
  let browser: Browser;
  closePagesAfterEachTest(() => browser);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'lakecams-npm-run-dev-'));
    // The run's initialised PostgreSQL: npm start's first start, initdb included, is npm-start.e2e.test.ts's.
    await seedEmbeddedPostgres(dataDir);
    const shellPort = await freePort();
    const portalPort = await freePort();
    page = `http://localhost:${shellPort}`;
    portal = `http://localhost:${portalPort}`;
    // As a developer runs it, in its own process group like a terminal's foreground job.
    child = spawn('npm', ['run', 'dev', '--', '--port', String(shellPort)], {
      cwd: ROOT,
      detached: true,
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        PORT: String(portalPort),
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(await freePort()),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer) => {
      output += chunk;
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    await new Promise<void>((ready, failed) => {
      const timer = setTimeout(() => failed(new Error(`npm run dev did not come up:\n${output}`)), 170_000);
      child?.stdout?.on('data', () => {
        if (output.includes('Every app in watch mode')) {
          clearTimeout(timer);
          ready();
        }
      });
      child?.once('exit', () => {
        clearTimeout(timer);
        failed(new Error(`npm run dev exited:\n${output}`));
      });
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    const pid = child?.pid;
    if (pid && groupAlive(pid)) {
      // A test that failed before the last one: stop it as Ctrl-C does, so the portal and PostgreSQL stop too.
      process.kill(-pid, 'SIGINT');
      await expect
        .poll(() => groupAlive(pid), { timeout: 30_000 })
        .toBe(false)
        .catch(() => process.kill(-pid, 'SIGKILL'));
    }
    const postmaster = join(dataDir, 'postgres', 'postmaster.pid');
    if (existsSync(postmaster)) process.kill(Number((await readFile(postmaster, 'utf8')).split('\n')[0]), 'SIGINT');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prints the page to open, and its /remotes.json names a dev server for every remote', async () => {
    expect(output).toContain(`open ${page}/`);
    const remotes = (await (await fetch(`${page}/remotes.json`)).json()) as Record<string, string>;
    expect(Object.keys(remotes).sort()).toEqual(REMOTES.map((remote) => remote.name).sort());
    for (const manifest of Object.values(remotes)) {
      expect(manifest).toMatch(/^http:\/\/localhost:\d+\/mf-manifest\.json$/);
      expect(new URL(manifest).origin).not.toBe(portal);
      const answer = await fetch(manifest);
      expect(answer.status).toBe(200);
      await answer.body?.cancel();
    }
  });

  it('shows the portal with the remotes from their dev servers and /api from the portal', async () => {
    const remotes = (await (await fetch(`${page}/remotes.json`)).json()) as Record<string, string>;
    const mapOrigin = new URL(remotes.mf_map as string).origin;
    const tab = await browser.newPage({ viewport: DESKTOP });
    const errors = watchPageErrors(tab, { exceptionsOnly: true });
    const fromMapDevServer: string[] = [];
    tab.on('request', (request) => {
      if (request.url().startsWith(mapOrigin)) fromMapDevServer.push(request.url());
    });
    await tab.goto(`${page}/webcams`);
    // The camera list comes through the shell's dev server from the portal's API.
    await expect.poll(() => tab.locator('a.camera-card').count(), { timeout: 60_000 }).toBe(DEMO_CAMERAS.length);
    expect(fromMapDevServer).toContain(`${mapOrigin}/mf-manifest.json`);
    // The dev build listens for rebuilds.
    expect(fromMapDevServer.some((url) => url.includes('/__dev/events'))).toBe(true);
    expect(errors).toEqual([]);
    await tab.screenshot({ path: join(ARTIFACTS, 'npm-run-dev-webcams.png') });
  });

  it('stops the portal and every dev server on Ctrl-C', async () => {
    const running = child;
    if (!running?.pid) throw new Error('not started');
    const exited = new Promise((done) => running.once('exit', done));
    process.kill(-running.pid, 'SIGINT');
    await exited;
    await expect.poll(() => groupAlive(running.pid as number), { timeout: 30_000 }).toBe(false);
    // The portal ran in a process group of its own, PostgreSQL with it: both are gone.
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    for (const url of [page, portal]) {
      expect(
        await fetch(url).then(
          () => 'answered',
          () => 'closed',
        ),
      ).toBe('closed');
    }
  });
});
