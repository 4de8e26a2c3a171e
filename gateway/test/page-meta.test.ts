import {
  type CameraListItem,
  cameraKeywords,
  PAGE_DATA_IDS,
  SITE_DESCRIPTION,
  SITE_NAME,
  THEME_COLOR,
} from '@lakecams/contracts';
import { createLogger } from '@lakecams/service-kit';
import type { FastifyInstance } from 'fastify';
import { readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';
import {
  cameraOfPage,
  cameraPageMeta,
  createCameraLookup,
  escapeHtml,
  renderPageMeta,
  withFirstView,
  withPageData,
  withPageMeta,
  withTilePreconnect,
} from '../src/plugins/page-meta.ts';
import { builtShellRoot, stubServices } from './shell-fixture.ts';

const camera = (name: string, images: (string | null)[], intervalMin = 10): CameraListItem => ({
  webcam: { id: 1, name, pattern: '', distance: 5, angle: 60, intervalMin, webcamType: 'STATIC' },
  images: images.map((image) => (image ? { name: image, lat: 47.2, lng: 8.7, direction: 90, webcamId: 1 } : null)),
});
/** Every `<meta>` of a page as name/property → content (content unescaped as a browser reads it). */
function metaOf(html: string): Record<string, string> {
  const decodeEntities = (text: string) =>
    text.replace(
      /&(amp|lt|gt|quot|#39);/g,
      (_, e) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e as 'amp'],
    );
  return Object.fromEntries(
    [...html.matchAll(/<meta (?:name|property)="([^"]+)" content="([^"]*)">/g)].map((m) => [
      m[1],
      decodeEntities(m[2] ?? ''),
    ]),
  );
}

describe('page meta', () => {
  it('escapes everything it writes into HTML', () => {
    expect(escapeHtml(`"><script>alert('x')</script>&`)).toBe(
      '&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;',
    );
    const html = renderPageMeta({ title: '<b>', description: '"quoted"', url: 'https://x.example/?a=1&b=2' });
    expect(html).not.toMatch(/<b>|"quoted"|&b=/);
    expect(metaOf(html)).toMatchObject({ 'og:title': '<b>', description: '"quoted"', 'twitter:card': 'summary' });
  });

  it('replaces the generic description of index.html, once', () => {
    const shell = '<html><head><title>Seecam</title><meta name="description" content="generic"></head></html>';
    const page = withPageMeta(shell, { title: 'A – B', description: 'about B', url: 'https://x.example/b' });
    // The page's own title, as the shell would set it, is in the HTML from the start.
    expect(page).toContain('<title>A – B</title>');
    expect(page.match(/name="description"/g)).toHaveLength(1);
    expect(metaOf(page).description).toBe('about B');
  });

  it('reads camera pages, and only names a camera can have', () => {
    expect(cameraOfPage('/webcam/Richterswil')).toBe('Richterswil');
    expect(cameraOfPage('/webcam/See_Blick-2/')).toBe('See_Blick-2');
    expect(cameraOfPage('/webcam/%22%3E%3Cscript%3E')).toBeNull();
    expect(cameraOfPage('/webcam/%E0%A4%A')).toBeNull();
    expect(cameraOfPage('/webcams')).toBeNull();
    expect(cameraOfPage('/webcam/a/b')).toBeNull();
  });

  it("describes a camera by its current picture, which is the share preview's image", () => {
    const meta = cameraPageMeta('https://seecam.example', camera('Ufer', ['202611251300', '202611251310', null], 5));
    expect(meta.title).toBe(`${SITE_NAME} – Ufer`);
    expect(meta.description).toBe(
      'Webcam Ufer am Zürichsee: das aktuelle Bild vom 25.11.2026, 13:10 Uhr, alle 5 Minuten ein neues.',
    );
    expect(meta.image?.url).toBe('https://seecam.example/api/Image/Get/camera/Ufer/202611251310.jpg');
    expect(cameraPageMeta('https://s.example', camera('Ufer', [null], 1)).image).toBeUndefined();
  });

  it('asks for the camera list at most once per interval, and keeps the last list when a fetch fails', async () => {
    let clock = 0;
    let calls = 0;
    let fail = false;
    const lookup = createCameraLookup(
      async () => {
        calls += 1;
        if (fail) throw new Error('down');
        return [camera('Ufer', ['202611251310'])];
      },
      30_000,
      () => clock,
    );
    await Promise.all([lookup('Ufer'), lookup('Ufer')]);
    expect((await lookup('Ufer'))?.webcam.name).toBe('Ufer');
    expect(await lookup('Nirgends')).toBeUndefined();
    expect(calls).toBe(1);
    clock = 30_000;
    fail = true;
    expect((await lookup('Ufer'))?.webcam.name).toBe('Ufer');
    expect(calls).toBe(2);
  });
});

describe('the gateway serves pages with share previews, icons and the app manifest', () => {
  let root: string;
  let gateway: FastifyInstance;
  let secondGateway: FastifyInstance;
  /** A gateway without the shell's build that asks the shell's own server for index.html (Kubernetes). */
  let remoteShellGateway: FastifyInstance;
  let shellServer: Server;
  let shellRequests = 0;
  let closeServices: (() => Promise<void>) | undefined;
  let listFetches = 0;

  beforeAll(async () => {
    root = await builtShellRoot('lakecams-page-meta-');
    const dist = join(root, 'shell', 'dist');
    const stubs = await stubServices((service, app) => {
      if (service === 'webcam') {
        app.get('/api/Webcam/GetImages', async () => {
          listFetches += 1;
          return [camera('Seesicht', ['202611251310'], 10), camera('See_Blick-2', ['202611251305'])];
        });
      }
    });
    closeServices = stubs.close;
    const targets = stubs.targets;
    const common = {
      logger: createLogger('silent'),
      targets,
      frontendRoot: root,
      remotes: {},
    };
    gateway = await buildGateway(common);
    secondGateway = await buildGateway({ ...common, publicUrl: 'https://seecam.example/' });
    const indexHtml = await readFile(join(dist, 'index.html'));
    shellServer = createServer((request, response) => {
      shellRequests += 1;
      response.writeHead(request.url === '/index.html' ? 200 : 404, { 'content-type': 'text/html' });
      response.end(request.url === '/index.html' ? indexHtml : '');
    });
    await new Promise<void>((resolve) => shellServer.listen(0, '127.0.0.1', resolve));
    const { port } = shellServer.address() as { port: number };
    remoteShellGateway = await buildGateway({
      ...common,
      frontendRoot: join(root, 'nothing-built-here'),
      shellUrl: `http://127.0.0.1:${port}`,
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await secondGateway?.close();
    await remoteShellGateway?.close();
    await new Promise((resolve) => shellServer?.close(resolve));
    await closeServices?.();
    await rm(root, { recursive: true, force: true });
  });

  const page = async (app: FastifyInstance, url: string, host = 'portal.example:8080') => {
    const answer = await app.inject({ url, headers: { host } });
    expect(answer.statusCode, url).toBe(200);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    return { html: answer.body, meta: metaOf(answer.body) };
  };

  it("gives a camera page its title, description and current picture, as paths without PUBLIC_URL: never the request's host", async () => {
    const { html, meta } = await page(gateway, '/webcam/Seesicht');
    expect(meta).toMatchObject({
      description:
        'Webcam Seesicht am Zürichsee: das aktuelle Bild vom 25.11.2026, 13:10 Uhr, alle 10 Minuten ein neues.',
      'og:title': `${SITE_NAME} – Seesicht`,
      'og:url': '/webcam/Seesicht',
      'og:image': '/api/Image/Get/camera/Seesicht/202611251310.jpg',
      // What everybody gets is POOR, 480 px wide: a small card, not a large one that would show it blown up.
      'og:image:width': '480',
      'twitter:card': 'summary',
    });
    expect(meta['og:description']).toBe(meta.description);
    // What a crawler reads as the page's title and keywords, as the page sets them once it runs.
    expect(html).toContain(`<title>${SITE_NAME} – Seesicht</title>`);
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(meta.keywords).toBe(cameraKeywords('Seesicht'));
    expect(html.match(/name="description"/g)).toHaveLength(1);
    // The page is still the shell: its links stay.
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
  });

  it('uses PUBLIC_URL when set, and asks for the camera list once for many pages', async () => {
    const before = listFetches;
    const { meta } = await page(secondGateway, '/webcam/See_Blick-2');
    expect(meta['og:url']).toBe('https://seecam.example/webcam/See_Blick-2');
    expect(meta['og:image']).toBe('https://seecam.example/api/Image/Get/camera/See_Blick-2/202611251305.jpg');
    await page(secondGateway, '/webcam/Seesicht');
    await page(secondGateway, '/webcam/See_Blick-2');
    expect(listFetches - before).toBe(1);
  });

  it('titles a page in its HTML as the shell titles it, crawlers and first paint alike', async () => {
    expect((await page(gateway, '/datenschutz')).html).toContain(`<title>${SITE_NAME} – Datenschutz</title>`);
    expect((await page(gateway, '/')).html).toContain(`<title>${SITE_NAME}</title>`);
  });

  it('gives unknown cameras and other pages the site description, and escapes what the request brings', async () => {
    for (const url of ['/webcam/Nirgends', '/webcams', '/webcam/%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E']) {
      const { meta } = await page(gateway, url);
      expect(meta, url).toMatchObject({
        description: SITE_DESCRIPTION,
        'og:title': expect.stringMatching(new RegExp(`^${SITE_NAME}( – |$)`)),
        'twitter:card': 'summary',
      });
      expect(meta['og:image'], url).toBeUndefined();
    }
    for (const gatewayOf of [gateway, secondGateway]) {
      const hostile = await page(gatewayOf, '/webcam/Seesicht', 'evil.example"><script>alert(1)</script>');
      expect(hostile.html).not.toContain('evil.example');
      expect(hostile.meta['og:image']).toMatch(/^(https:\/\/seecam\.example)?\/api\/Image\/Get\/camera\/Seesicht\//);
    }
  });

  it("without a shell build of its own, fills in the shell server's index.html, asked once for many pages", async () => {
    const { html, meta } = await page(remoteShellGateway, '/webcam/Seesicht');
    expect(meta['og:image']).toBe('/api/Image/Get/camera/Seesicht/202611251310.jpg');
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
    expect((await page(remoteShellGateway, '/webcam/Nirgends')).meta.description).toBe(SITE_DESCRIPTION);
    expect(shellRequests).toBe(1);
  });

  it('writes what the page would ask for first into its HTML: the remote manifests, and on the map pages the settings and the camera list', async () => {
    const dataOf = (html: string, id: string) => {
      const match = new RegExp(`<script[^>]* type="application/json" id="${id}">([^<]*)</script>`).exec(html);
      return match ? JSON.parse(match[1] as string) : undefined;
    };
    for (const url of ['/', '/webcams', '/login', '/webcam/Seesicht']) {
      const { html } = await page(gateway, url);
      expect(dataOf(html, PAGE_DATA_IDS.remoteManifests), url).toEqual(
        (await gateway.inject({ url: '/remotes.json' })).json(),
      );
      const onMapPage = url === '/' || url === '/webcams';
      expect(
        dataOf(html, PAGE_DATA_IDS.cameraList)?.map((item: CameraListItem) => item.webcam.name),
        url,
      ).toEqual(onMapPage ? ['Seesicht', 'See_Blick-2'] : undefined);
      expect(dataOf(html, PAGE_DATA_IDS.pageConfig), url).toEqual(
        onMapPage ? (await gateway.inject({ url: '/config.json' })).json() : undefined,
      );
      // The tiles' server is named once, on the map's page; /remotes.json is no longer fetched in advance.
      expect(html.includes('<link rel="preconnect" href="https://server.arcgisonline.com">'), url).toBe(url === '/');
      expect(html, url).not.toContain('href="/remotes.json"');
    }
  });

  it('lets no text in the page data close its element', () => {
    const html = withPageData('<html><head></head><body></body></html>', 'camera-list', [{ name: '</script><b>' }]);
    expect(html).toContain('[{"name":"\\u003c/script>\\u003cb>"}]');
    expect(JSON.parse(/id="camera-list">([^<]*)</.exec(html)?.[1] ?? '')).toEqual([{ name: '</script><b>' }]);
    expect(withTilePreconnect('<head></head>', 'https://{s}.tiles.example/{z}/{x}/{y}.png')).toBe('<head></head>');
    expect(withTilePreconnect('<head></head>', '/tiles/{z}/{x}/{y}.png')).toBe('<head></head>');
  });

  it('serves the app manifest as JSON, with icons of 192 and 512 pixels that answer as PNG', async () => {
    const answer = await gateway.inject({ url: '/manifest.webmanifest' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = JSON.parse(answer.body) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      icons: { src: string; sizes: string; type: string }[];
    };
    expect(manifest).toMatchObject({
      name: SITE_NAME,
      start_url: '/',
      display: 'standalone',
      theme_color: THEME_COLOR,
    });
    expect(manifest.short_name.length).toBeLessThanOrEqual(12);
    for (const size of [192, 512]) {
      const icon = manifest.icons.find((entry) => entry.sizes === `${size}x${size}`);
      expect(icon?.type).toBe('image/png');
      const png = await gateway.inject({ url: icon?.src ?? '' });
      expect(png.statusCode).toBe(200);
      expect(png.headers['content-type']).toBe('image/png');
      // Width and height from the PNG header (IHDR).
      expect([png.rawPayload.readUInt32BE(16), png.rawPayload.readUInt32BE(20)]).toEqual([size, size]);
    }
    for (const [url, type] of [
      ['/favicon.svg', 'image/svg+xml'],
      ['/favicon.png', 'image/png'],
      ['/apple-touch-icon.png', 'image/png'],
    ]) {
      const icon = await gateway.inject({ url });
      expect([url, icon.statusCode, String(icon.headers['content-type']).split(';')[0]]).toEqual([url, 200, type]);
    }
  });
});

describe("a camera page's first view", () => {
  const shell = '<html><head><title>x</title></head><body><main id="main" tabindex="-1"></main></body></html>';

  it('puts the latest picture and the name in <main>, escaped, and the style that hides the remote until it takes over', () => {
    const html = withFirstView(shell, camera('Rapperswil-Seedamm', ['202611250800', null, '202611250810']));
    expect(html).toContain(
      '<main id="main" tabindex="-1"><div id="first-view" data-path="/webcam/Rapperswil-Seedamm"><h1>Rapperswil-Seedamm</h1><figure><picture><img src="/api/Image/Get/camera/Rapperswil-Seedamm/202611250810.jpg" alt="Webcam Rapperswil-Seedamm, Aufnahme vom 25.11.2026, 08:10 Uhr" width="480" height="270" fetchpriority="high"></picture></figure></div></main>',
    );
    expect(html).toMatch(/<style>[^<]*#main:has\(>#first-view\)>\.remote-outlet\{display:none\}<\/style><\/head>/);
  });

  it('leaves the page as it is for a camera without pictures or a page without <main>', () => {
    expect(withFirstView(shell, camera('Leer', [null]))).toBe(shell);
    const other = '<html><head></head><body></body></html>';
    expect(withFirstView(other, camera('Hafen', ['202611250810']))).toBe(other);
  });
});
