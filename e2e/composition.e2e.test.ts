import { REMOTES, SITE_NAME } from '@lakecams/contracts';
import { buildGateway, defaultRemoteManifests } from '@lakecams/gateway';
import { createLogger } from '@lakecams/service-kit';
import { DEMO_CAMERAS } from '@lakecams/svc-webcam/testing';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '../scripts/portal.ts';
import { ARTIFACTS, startTestPortal } from './embedded-portal.ts';
import { DESKTOP, closePagesAfterEachTest, launchChromium, openPage, PHONE } from './browser.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface IdentityProbe {
  react: unknown;
  sessionInstanceId: string;
}

/** A second build of mf-map with a visible label, served from another origin like an independently deployed remote. */
async function serveSecondMapBuild(dir: string): Promise<{ url: string; server: FastifyInstance }> {
  const build = spawnSync('npm', ['run', 'build', '-w', 'mf-map'], {
    cwd: ROOT,
    env: { ...process.env, MF_OUT_DIR: dir, MF_MAP_VARIANT_LABEL: 'Zweite Auslieferung' },
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`second mf-map build failed: ${build.stderr}`);
  const server = Fastify();
  await server.register(fastifyStatic, {
    root: dir,
    setHeaders: (reply) => reply.header('access-control-allow-origin', '*'),
  });
  return { url: await server.listen({ host: '127.0.0.1', port: 0 }), server };
}

describe('the embedded portal in Chromium', () => {
  let portal: RunningPortal;
  let browser: Browser;
  closePagesAfterEachTest(() => browser);

  beforeAll(async () => {
    portal = await startTestPortal({ demoBackfillMinutes: 0 });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  async function open(path: string, viewport = DESKTOP): Promise<{ page: Page; errors: string[]; requests: string[] }> {
    const requests: string[] = [];
    const { page, errors } = await openPage(browser, `${portal.url}${path}`, {
      context: { viewport },
      beforeLoad: async (opened) => opened.on('request', (request) => requests.push(new URL(request.url()).pathname)),
    });
    return { page, errors, requests };
  }

  it('lists the demo cameras at /webcams, each linking to its camera page', async () => {
    const { page, errors } = await open('/webcams');
    const links = page.locator('a[href^="/webcam/"]:not([href$="?zoom=1"])');
    // The list shows cameras once svc-imaging has their first picture.
    await expect.poll(() => links.count(), { timeout: 20_000 }).toBe(DEMO_CAMERAS.length);
    const hrefs = await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')));
    expect(hrefs.sort()).toEqual(DEMO_CAMERAS.map((camera) => `/webcam/${camera.name}`).sort());
    expect(await page.title()).toMatch(new RegExp(`^${SITE_NAME}`));
    await page.screenshot({ path: join(ARTIFACTS, 'webcams-desktop.png'), fullPage: true });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: join(ARTIFACTS, 'webcams-phone.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('loads each remote through the manifest named in /remotes.json, which the page carries', async () => {
    const routes = { mf_map: '/webcams', mf_account: '/login', mf_admin: '/edit/webcams' } as const;
    const published = await (await fetch(`${portal.url}/remotes.json`)).json();
    for (const remote of REMOTES) {
      const { page, requests, errors } = await open(routes[remote.name]);
      const html = await (await fetch(`${portal.url}${routes[remote.name]}`)).text();
      const inline = /<script[^>]* type="application\/json" id="remote-manifests">([^<]*)<\/script>/.exec(html)?.[1];
      expect(JSON.parse(inline ?? 'null')).toEqual(published);
      await page.locator('main h1, main h2').first().waitFor();
      expect(requests).not.toContain('/remotes.json');
      expect(requests).toContain(`/remotes/${remote.folder}/mf-manifest.json`);
      expect(errors).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `${remote.folder}-desktop.png`) });
      await page.close();
    }
  });

  it('shares one React and one session store between the shell and a remote', async () => {
    const { page } = await open('/webcams');
    await page.waitForFunction(() => (window as unknown as { __lakecams_remotes?: object }).__lakecams_remotes);
    const identity = await page.evaluate(() => {
      const w = window as unknown as {
        __lakecams: IdentityProbe;
        __lakecams_remotes: Record<string, IdentityProbe>;
      };
      const remote = w.__lakecams_remotes.mf_map as IdentityProbe;
      return {
        sameReact: w.__lakecams.react === remote.react,
        sameSession: w.__lakecams.sessionInstanceId === remote.sessionInstanceId,
        shellSession: w.__lakecams.sessionInstanceId,
      };
    });
    expect(identity.shellSession).toBeTruthy();
    expect(identity.sameReact).toBe(true);
    expect(identity.sameSession).toBe(true);
    await page.close();
  });

  it('shows the cookie notice at the first visit only, and the news below the header', async () => {
    const visitor = await launchChromium({ firstVisit: true });
    try {
      const page = await visitor.newPage({ viewport: PHONE });
      await page.goto(`${portal.url}/webcams`);
      const notice = page.getByRole('region', { name: 'Hinweis zu Cookies' });
      await notice.waitFor();
      expect(await notice.getByRole('link', { name: 'Datenschutzerklärung' }).getAttribute('href')).toBe(
        '/datenschutz',
      );
      await expect
        .poll(() => page.getByRole('complementary', { name: 'Neuigkeiten' }).textContent())
        .toContain('Zürichsee');
      await page.screenshot({ path: join(ARTIFACTS, 'cookie-notice-phone.png') });
      await notice.getByRole('button', { name: 'Akzeptieren' }).click();
      await expect.poll(() => notice.count()).toBe(0);
      await page.reload();
      await page.getByRole('complementary', { name: 'Neuigkeiten' }).waitFor();
      expect(await notice.count()).toBe(0);
    } finally {
      await visitor.close();
    }
  });

  it('redirects an unknown path to home', async () => {
    const { page } = await open('/does/not/exist');
    await page.waitForURL(`${portal.url}/`);
    expect(new URL(page.url()).pathname).toBe('/');
    await page.close();
  });

  it('swaps mf-map for another build when /remotes.json points at it, without rebuilding the shell', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lakecams-mf-map-b-'));
    const second = await serveSecondMapBuild(dir);
    // A second gateway on the same services, whose /remotes.json names the other build.
    const gateway = await buildGateway({
      logger: createLogger('warn'),
      targets: Object.fromEntries(
        Object.entries(portal.services).map(([name, app]) => [name, { kind: 'local', app }]),
      ) as Parameters<typeof buildGateway>[0]['targets'],
      frontendRoot: ROOT,
      remotes: { ...defaultRemoteManifests(), mf_map: `${second.url}/mf-manifest.json` },
    });
    const gatewayUrl = await gateway.listen({ host: '127.0.0.1', port: 0 });
    try {
      const original = await browser.newPage();
      await original.goto(`${portal.url}/webcams`);
      await original.locator('a[href^="/webcam/"]').first().waitFor();
      expect(await original.locator('body').textContent()).not.toContain('Zweite Auslieferung');

      const swapped = await browser.newPage();
      await swapped.goto(`${gatewayUrl}/webcams`);
      await swapped.getByText('Zweite Auslieferung').waitFor();
      await expect
        .poll(() => swapped.locator('a[href^="/webcam/"]:not([href$="?zoom=1"])').count(), { timeout: 20_000 })
        .toBe(DEMO_CAMERAS.length);
      await swapped.screenshot({ path: join(ARTIFACTS, 'webcams-second-build.png') });
      await original.close();
      await swapped.close();
    } finally {
      await gateway.close();
      await second.server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
