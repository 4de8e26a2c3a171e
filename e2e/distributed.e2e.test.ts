import { SERVICES } from '@lakecams/contracts';
import { TEST_NATS_URL, testDatabasePrefix } from '@lakecams/service-kit/testing';
import { DEMO_CAMERAS } from '@lakecams/svc-webcam/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, closePagesAfterEachTest, launchChromium } from './browser.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('npm run start:distributed on the local PostgreSQL and NATS', () => {
  const databases = testDatabasePrefix();
  let portal: ChildProcess;
  let url: string;
  let browser: Browser;
  closePagesAfterEachTest(() => browser);
  let output = '';

  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'lakecams-distributed-'));
    const port = await freePort();
    url = `http://localhost:${port}`;
    const databaseUrls = databases.environment(SERVICES);
    portal = spawn('npm', ['run', 'start:distributed'], {
      cwd: ROOT,
      detached: true,
      env: {
        ...process.env,
        ...databaseUrls,
        PORT: String(port),
        // Below the ephemeral range (32768–60999), where outgoing connections take their ports.
        SERVICE_BASE_PORT: String(20_000 + Math.floor(Math.random() * 10_000)),
        NATS_URL: TEST_NATS_URL,
        LOG_LEVEL: 'warn',
        DEMO_BACKFILL_MINUTES: '0',
        // Its own stream and subjects on the shared NATS server.
        BUS_NAMESPACE: databases.prefix,
        DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    portal.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    portal.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`distributed portal did not start:\n${output}`)), 90_000);
      const check = () => {
        if (output.includes('running at')) {
          clearTimeout(timer);
          resolve();
        }
      };
      portal.stdout?.on('data', check);
      portal.once('exit', () => {
        clearTimeout(timer);
        reject(new Error(`distributed portal exited:\n${output}`));
      });
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (portal?.pid && portal.exitCode === null && portal.signalCode === null) {
      const exited = new Promise((resolve) => portal.once('exit', resolve));
      process.kill(-portal.pid, 'SIGTERM');
      await exited;
    }
    await databases.dropAll(SERVICES);
    await rm(dataDir, { recursive: true, force: true });
    const nc = await connect({ servers: TEST_NATS_URL });
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(`LAKECAMS_${databases.prefix}`).catch(() => false);
    await jsm.streams.delete(`OBJ_lakecams_images_${databases.prefix}`).catch(() => false);
    await nc.close();
  });

  it('runs every service in its own process, two imaging replicas', () => {
    expect(output).toMatch(/distributed: 6 processes/);
  });

  it('serves the same /webcams page', async () => {
    const page = await browser.newPage();
    await page.goto(`${url}/webcams`);
    const links = page.locator('a[href^="/webcam/"]:not([href$="?zoom=1"])');
    await expect.poll(() => links.count(), { timeout: 90_000 }).toBe(DEMO_CAMERAS.length);
    await page.close();
  });

  it('answers /health and /ready through the gateway', async () => {
    expect((await fetch(`${url}/health`)).status).toBe(200);
    const ready = await fetch(`${url}/ready`);
    expect(ready.status).toBe(200);
  });

  // Last: Ctrl-C in a terminal signals the whole process group, the launcher and every service.
  it('stops every process cleanly on Ctrl-C', async () => {
    const exited = new Promise((resolve) => portal.once('exit', resolve));
    process.kill(-(portal.pid as number), 'SIGINT');
    await exited;
    // npm passes the signal on and ends with it; the launcher reports how its processes ended.
    await expect.poll(() => output, { timeout: 20_000 }).toMatch(/Stopped(;| all)/);
    expect(output).toContain('Stopped all 6 processes cleanly.');
    expect(output).not.toMatch(/"level":(50|60)/);
  });
});
