import { SERVER_RENDER_FILE, SERVER_RENDERED_ATTRIBUTE, SERVICES } from '@lakecams/contracts';
import { buildGateway, type ServiceTargets } from '@lakecams/gateway';
import { createLogger } from '@lakecams/service-kit';
import Fastify, { type FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { builtShellRoot } from '../../gateway/test/shell-fixture.ts';
import { KEPT_VERSIONS, release, rollback } from '../release.ts';

/** A build as rspack leaves it, told apart by its label. */
const fakeBuild = (label: string) => async (_folder: string, outDir: string) => {
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'mf-manifest.json'), JSON.stringify({ label }));
  await writeFile(join(outDir, 'remoteEntry.js'), `/* ${label} */`);
};
const at = (minute: number) => new Date(Date.UTC(2026, 10, 25, 12, minute));

describe('releasing one remote on its own', () => {
  let root: string;
  let service: FastifyInstance;
  let gateway: FastifyInstance;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lakecams-release-'));
    service = Fastify();
    await service.ready();
    gateway = await buildGateway({
      logger: createLogger('silent'),
      targets: Object.fromEntries(SERVICES.map((s) => [s, { kind: 'local', app: service }])) as ServiceTargets,
      frontendRoot: root,
      remotes: { mf_map: '/remotes/mf-map/mf-manifest.json', mf_admin: '/remotes/mf-admin/mf-manifest.json' },
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await service?.close();
    await rm(root, { recursive: true, force: true });
  });

  const remotes = async () => (await gateway.inject({ url: '/remotes.json' })).json() as Record<string, string>;

  it('serves a new version at once, leaves the other remotes as they were, and goes back with a rollback', async () => {
    const first = await release('mf-admin', { frontendRoot: root, now: at(1), buildInto: fakeBuild('first') });
    expect((await remotes()).mf_admin).toBe(`/releases/mf-admin/${first}/mf-manifest.json`);
    const second = await release('mf-admin', { frontendRoot: root, now: at(2), buildInto: fakeBuild('second') });
    const after = await remotes();
    expect(after).toEqual({
      mf_map: '/remotes/mf-map/mf-manifest.json',
      mf_admin: `/releases/mf-admin/${second}/mf-manifest.json`,
    });
    const manifest = await gateway.inject({ url: after.mf_admin as string });
    expect([manifest.statusCode, manifest.json().label]).toEqual([200, 'second']);
    expect(manifest.headers['access-control-allow-origin']).toBe('*');
    expect(manifest.headers['cache-control']).toBe('no-cache');

    expect(await rollback('mf-admin', { frontendRoot: root })).toBe(first);
    expect((await remotes()).mf_admin).toBe(`/releases/mf-admin/${first}/mf-manifest.json`);
    expect(existsSync(join(root, 'releases', 'mf-admin', second))).toBe(false);
    await expect(rollback('mf-admin', { frontendRoot: root })).rejects.toThrow(
      'mf-admin has no earlier release to go back to',
    );
  });

  it(`keeps ${KEPT_VERSIONS} versions, and keeps serving the current one when a build fails`, async () => {
    const versions: string[] = [];
    for (let minute = 10; minute < 15; minute++) {
      versions.push(
        await release('mf-map', { frontendRoot: root, now: at(minute), buildInto: fakeBuild(`${minute}`) }),
      );
    }
    const state = JSON.parse(await readFile(join(root, 'releases', 'state.json'), 'utf8'));
    expect(state['mf-map'].versions).toEqual(versions.slice(-KEPT_VERSIONS));
    expect(existsSync(join(root, 'releases', 'mf-map', versions[0] as string))).toBe(false);
    const broken = release('mf-map', {
      frontendRoot: root,
      now: at(20),
      buildInto: async () => {
        throw new Error('rspack failed');
      },
    });
    await expect(broken).rejects.toThrow('rspack failed');
    expect((await remotes()).mf_map).toBe(`/releases/mf-map/${versions.at(-1)}/mf-manifest.json`);
    await expect(release('mf-nothing', { frontendRoot: root })).rejects.toThrow('No remote mf-nothing');
  });

  it('builds the remote with rspack into its version folder, its server build beside it', async () => {
    const version = await release('mf-account', { frontendRoot: root });
    const folder = join(root, 'releases', 'mf-account', version);
    expect(existsSync(join(folder, 'mf-manifest.json'))).toBe(true);
    expect(existsSync(join(folder, 'remoteEntry.js'))).toBe(true);
    expect(existsSync(join(folder, SERVER_RENDER_FILE))).toBe(true);
    const entry = await gateway.inject({ url: `/releases/mf-account/${version}/remoteEntry.js` });
    expect(entry.statusCode).toBe(200);
  }, 300_000);

  it("renders a page with the released version's server build, and with the one before after a rollback", async () => {
    const mainOf = async (url: string) =>
      /<main id="main"[^>]*>([\s\S]*)<\/main>/.exec((await gateway.inject({ url })).body)?.[1] ?? '';
    // The shell's page, which the gateway fills in (no shell build in this folder before).
    await cp(join(await builtShellRoot('lakecams-release-shell-'), 'shell'), join(root, 'shell'), { recursive: true });
    const page = await buildGateway({
      logger: createLogger('silent'),
      targets: Object.fromEntries(SERVICES.map((s) => [s, { kind: 'local', app: service }])) as ServiceTargets,
      frontendRoot: root,
      remotes: {},
    });
    const labelled = async (label: string, minute: number) => {
      vi.stubEnv('MF_MAP_VARIANT_LABEL', label);
      try {
        return await release('mf-map', { frontendRoot: root, now: at(minute) });
      } finally {
        vi.unstubAllEnvs();
      }
    };
    try {
      const first = await labelled('Erste Freigabe', 40);
      const second = await labelled('Zweite Freigabe', 41);
      let html = (await page.inject({ url: '/datenschutz' })).body;
      expect(html).toContain(`${SERVER_RENDERED_ATTRIBUTE}="/datenschutz"><div class="mf-map">`);
      expect(html).toContain('<h1>Datenschutz</h1>');
      expect(html).toContain('Variant: <!-- -->Zweite Freigabe');
      // The released build's stylesheet, inlined into the page (or linked, were it too large to inline).
      expect(html).toMatch(
        new RegExp(`<(style data-href|link rel="stylesheet" href)="/releases/mf-map/${second}/[^"]+\\.css">`),
      );

      expect(await rollback('mf-map', { frontendRoot: root })).toBe(first);
      html = (await page.inject({ url: '/datenschutz' })).body;
      expect(html).toContain('Variant: <!-- -->Erste Freigabe');
      expect(html).not.toContain('Zweite Freigabe');
      expect(html).toContain(`/releases/mf-map/${first}/`);
      expect(await mainOf('/webcams')).toBe('');
    } finally {
      await page.close();
    }
  }, 300_000);
});
