import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { DEV_REMOTE_COOKIE } from '@lakecams/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '../scripts/portal.ts';
import { closePagesAfterEachTest, DESKTOP, freePort, launchChromium, logIn, watchPageErrors } from './browser.ts';
import { ARTIFACTS, startTestPortal } from './embedded-portal.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A component with state, in the copy of mf-map only; the test rewrites its label while the page runs. */
const probe = (label: string) => `import { useState } from 'react';

export function DevProbe() {
  const [count, setCount] = useState(0);
  return (
    <button type="button" data-testid="dev-probe" onClick={() => setCount((n) => n + 1)}>
      Zähler {count} · ${label}
    </button>
  );
}
`;

const PROBED_APP = `import { remoteLifecycles } from '@lakecams/ui-kit';
import { DevProbe } from './dev-probe.tsx';
import { MapApp } from './map-app.tsx';

function ProbedMapApp() {
  return (
    <>
      <DevProbe />
      <MapApp />
    </>
  );
}

export const { bootstrap, mount, unmount } = remoteLifecycles('mf_map', ProbedMapApp);
`;

/** mf-map copied under e2e/.artifacts (inside the repository, so its packages resolve), never the real sources. */
async function copyOfMap(): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  const dir = await mkdtemp(join(ARTIFACTS, 'dev-mf-map-'));
  for (const entry of ['package.json', 'rspack.config.ts', 'src']) {
    await cp(join(ROOT, 'mf-map', entry), join(dir, entry), { recursive: true });
  }
  await writeFile(join(dir, 'src', 'dev-probe.tsx'), probe('Version eins'));
  await writeFile(join(dir, 'src', 'app.tsx'), PROBED_APP);
  return dir;
}

interface DevRun {
  url: string;
  process: ChildProcess;
  output: () => string;
}

/** `npm run dev -w <app>` as a developer runs it, on a folder of the app and against the test's portal. */
async function startDevServerProcess(app: string, appDir: string, portalUrl: string): Promise<DevRun> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['scripts/dev.ts', app, '--app-dir', appDir, '--port', String(port), '--portal', portalUrl],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const run = { url: `http://localhost:${port}`, process: child, output: () => output };
  const built = () =>
    fetch(`${run.url}/mf-manifest.json`).then(
      (r) => r.ok,
      () => false,
    );
  const deadline = Date.now() + 120_000;
  try {
    while (!(await built())) {
      if (child.exitCode !== null) throw new Error(`the dev server exited:\n${output}`);
      if (Date.now() > deadline) throw new Error(`the dev server did not build:\n${output}`);
      await new Promise((later) => setTimeout(later, 200));
    }
    return run;
  } catch (error) {
    // Nothing of a failed start outlives the test.
    await stopProcess(child);
    throw error;
  }
}

async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

describe('a remote from its dev server, in one browser only', () => {
  let portal: RunningPortal;
  let browser: Browser;
  let copy: string | undefined;
  let dev: DevRun | undefined;
  closePagesAfterEachTest(() => browser);

  beforeAll(async () => {
    copy = await copyOfMap();
    portal = await startTestPortal({ demoBackfillMinutes: 0 });
    dev = await startDevServerProcess('mf-map', copy, portal.url);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await stopProcess(dev?.process);
    await portal?.close();
    if (copy) await rm(copy, { recursive: true, force: true });
  });

  function devRequestsTo(page: Page, origin: string | undefined): string[] {
    const seen: string[] = [];
    page.on('request', (request) => {
      if (origin && request.url().startsWith(origin)) seen.push(request.url());
    });
    return seen;
  }

  it('prints the link that switches a browser to it', () => {
    expect(dev?.output()).toContain(`${portal.url}/?devRemote=mf-map@${dev?.url}/mf-manifest.json`);
  });

  it('loads the dev build where the link was opened, applies an edit without a reload and keeps the state', async () => {
    if (!dev || !copy) throw new Error('not started');
    const developer = await browser.newPage();
    const errors = watchPageErrors(developer, { exceptionsOnly: true });
    await developer.goto(`${portal.url}/datenschutz?devRemote=mf-map@${dev.url}/mf-manifest.json`);

    const button = developer.getByTestId('dev-probe');
    await expect.poll(() => button.textContent()).toBe('Zähler 0 · Version eins');
    // The link is followed once: stored, and gone from the address.
    expect(new URL(developer.url()).search).toBe('');
    await expect.poll(() => developer.locator('#dev-remote-banner').textContent()).toContain(`mf_map von ${dev.url}`);
    // One React on the page (the dev build's, or React Refresh below could not work): shell and remote share it.
    expect(
      await developer.evaluate(() => {
        const w = window as unknown as {
          __lakecams?: { react: unknown };
          __lakecams_remotes?: Record<string, { react: unknown }>;
        };
        return typeof w.__lakecams?.react === 'function' && w.__lakecams.react === w.__lakecams_remotes?.mf_map?.react;
      }),
    ).toBe(true);
    await developer.screenshot({ path: join(ARTIFACTS, 'dev-remote-banner.png') });

    // Any other browser still gets the published remote.
    const visitor = await browser.newPage();
    const visitorDevRequests = devRequestsTo(visitor, dev?.url);
    await visitor.goto(`${portal.url}/datenschutz`);
    await expect.poll(() => visitor.locator('main h1').first().textContent()).toBeTruthy();
    expect(await visitor.getByTestId('dev-probe').count()).toBe(0);
    expect(await visitor.locator('#dev-remote-banner').count()).toBe(0);
    expect(visitorDevRequests).toEqual([]);

    // State and a marker of this page load, then an edit of the copy's source.
    await developer.evaluate(() => {
      (window as unknown as { __devLoopMarker: string }).__devLoopMarker = 'same page';
    });
    for (let i = 0; i < 3; i++) await button.click();
    await expect.poll(() => button.textContent()).toBe('Zähler 3 · Version eins');
    const written = performance.now();
    await writeFile(join(copy, 'src', 'dev-probe.tsx'), probe('Version zwei'));
    await button.filter({ hasText: 'Version zwei' }).waitFor({ timeout: 30_000 });
    const visibleAfterMs = Math.round(performance.now() - written);
    console.log(`dev loop: the edit showed ${visibleAfterMs} ms after the file was written`);

    expect(await button.textContent()).toBe('Zähler 3 · Version zwei');
    expect(await developer.evaluate(() => (window as unknown as { __devLoopMarker?: string }).__devLoopMarker)).toBe(
      'same page',
    );
    expect(errors).toEqual([]);
    // The published remote is untouched by the edit.
    expect(await readFile(join(ROOT, 'mf-map', 'src', 'app.tsx'), 'utf8')).not.toContain('DevProbe');

    // The banner's button takes this browser back to the published remote.
    await developer.locator('#dev-remote-banner').getByRole('button', { name: 'Zurücksetzen' }).click();
    await expect.poll(() => developer.locator('#dev-remote-banner').count()).toBe(0);
    await expect.poll(() => developer.locator('main h1').first().textContent()).toBeTruthy();
    expect(await developer.getByTestId('dev-probe').count()).toBe(0);
    expect(await developer.evaluate(() => localStorage.getItem('lakecams.remoteOverrides'))).toBeNull();
  });

  it('refuses a remote from an origin the portal does not allow, and says so', async () => {
    const page = await browser.newPage();
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(portal.url)) elsewhere.push(request.url());
    });
    await page.goto(`${portal.url}/datenschutz?devRemote=mf-map@https://remote.example/mf-manifest.json`);
    await expect.poll(() => page.locator('#dev-remote-banner').textContent()).toContain('abgelehnt');
    await expect.poll(() => page.locator('main h1').first().textContent()).toBeTruthy();
    expect(await page.getByTestId('dev-probe').count()).toBe(0);
    expect(elsewhere.filter((url) => url.includes('remote.example'))).toEqual([]);
  });

  it("serves mf-admin's job dashboard page beside its dev build, for the frame of /jobs under npm run dev", async () => {
    // mf-admin's own folder: the dev build goes to a folder of its own, the sources are only read.
    const admin = await startDevServerProcess('mf-admin', join(ROOT, 'mf-admin'), portal.url);
    try {
      const script = await fetch(`${admin.url}/job-dashboard/job-dashboard.js`);
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toContain('javascript');
      await script.body?.cancel();

      // Under `npm run dev` the shell's dev server answers /remotes.json with the dev servers; here the page gets
      // that answer for mf-admin.
      const page = await browser.newPage({ viewport: DESKTOP });
      const published = (await (await fetch(`${portal.url}/remotes.json`)).json()) as Record<string, string>;
      await page.route('**/remotes.json', (route) =>
        route.fulfill({ json: { ...published, mf_admin: `${admin.url}/mf-manifest.json` } }),
      );
      const fromDevServer = devRequestsTo(page, admin.url);
      await page.goto(`${portal.url}/login?returnUrl=%2Fdatenschutz`);
      await logIn(page, portal.demoAdmin as { username: string; password: string });
      await page.waitForURL(`${portal.url}/datenschutz`);
      // The frame's document, as the /jobs page loads it.
      // Marked as the shell's dev server marks what it passes on, so the portal's policy allows the dev server.
      await page.context().addCookies([{ name: DEV_REMOTE_COOKIE, value: '1', url: portal.url }]);
      await page.goto(`${portal.url}/api/Jobs/dashboard`);
      await page.getByRole('heading', { level: 1, name: 'Aufnahme-Jobs' }).waitFor({ timeout: 30_000 });
      await page.getByRole('table', { name: /jeder Kamera/ }).waitFor();
      expect(fromDevServer).toContain(`${admin.url}/job-dashboard/job-dashboard.js`);
      await page.screenshot({ path: join(ARTIFACTS, 'dev-job-dashboard.png') });
    } finally {
      await stopProcess(admin.process);
    }
  });
});
