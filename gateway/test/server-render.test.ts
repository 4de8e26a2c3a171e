import {
  COOKIE_NOTICE_COOKIE,
  NEWS_PATH,
  PAGE_DATA_IDS,
  REMOTES,
  SERVER_RENDER_FILE,
  SERVER_RENDERED_ATTRIBUTE,
} from '@lakecams/contracts';
import { createLogger } from '@lakecams/service-kit';
import type { FastifyInstance } from 'fastify';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';
import { localBuildDir, withServerRendering } from '../src/plugins/server-render.ts';
import { builtShellRoot, stubServices } from './shell-fixture.ts';

/** A remote's build as rspack leaves it, for what the gateway reads of it: the manifest and the server build. */
async function fakeBuild(dir: string, render: string, css: string[] = [], lazyCss = ['page.0123abcd.css']) {
  await mkdir(join(dir, dirname(SERVER_RENDER_FILE)), { recursive: true });
  const manifest = { exposes: [{ path: './app', assets: { css: { sync: css, async: lazyCss } } }] };
  await writeFile(join(dir, 'mf-manifest.json'), JSON.stringify(manifest));
  // Written beside and renamed in, as a build or a release replaces it.
  await writeFile(join(dir, 'render.tmp'), render);
  await rename(join(dir, 'render.tmp'), join(dir, SERVER_RENDER_FILE));
}

/** A server build that renders `/login` with the React the gateway gives it, and nothing else. */
const loginRender = (label: string) => `
  const React = globalThis.__lakecamsServerShared.react;
  const { renderToString } = globalThis.__lakecamsServerShared['react-dom/server'];
  export function render(url, data) {
    if (!url.startsWith('/login')) return null;
    const manifests = Object.keys(data['remote-manifests'] ?? {}).join(',');
    return renderToString(React.createElement('article', null,
      React.createElement('h1', null, 'Anmelden'),
      React.createElement('p', null, '${label} ' + url + ' React ' + React.version + ' ' + manifests)));
  }`;

const mainOf = (html: string) => /<main id="main"[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1];

describe('pages rendered on the server', () => {
  let root: string;
  let gateway: FastifyInstance;
  let closeServices: (() => Promise<void>) | undefined;
  const logged: { level: number; msg: string; err?: { message: string } }[] = [];

  beforeAll(async () => {
    root = await builtShellRoot('lakecams-server-render-');
    await fakeBuild(join(root, 'mf-account', 'dist'), loginRender('gebaut'), ['__federation_expose_app.0123abcd.css']);
    await fakeBuild(
      join(root, 'mf-map', 'dist'),
      `export function render(url) { if (url === '/datenschutz') throw new Error('broken page'); return null; }`,
    );
    const stubs = await stubServices();
    closeServices = stubs.close;
    gateway = await buildGateway({
      logger: createLogger('error', 'test', 'json', {
        write: (line: string) => void logged.push(JSON.parse(line)),
      }),
      targets: stubs.targets,
      frontendRoot: root,
      remotes: {
        mf_map: '/remotes/mf-map/mf-manifest.json',
        mf_account: '/remotes/mf-account/mf-manifest.json',
        mf_admin: '/remotes/mf-admin/mf-manifest.json',
      },
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await closeServices?.();
    await rm(root, { recursive: true, force: true });
  });

  it("carries the page as its remote renders it, in the remote's container, with the remote's stylesheets", async () => {
    const answer = await gateway.inject({ url: '/login?returnUrl=/user' });
    expect(answer.statusCode).toBe(200);
    const html = answer.body;
    expect(mainOf(html)).toBe(
      `<div id="remote-mf_account" class="remote-outlet" ${SERVER_RENDERED_ATTRIBUTE}="/login">` +
        '<article><h1>Anmelden</h1><p>gebaut /login?returnUrl=/user React 19.3.1 mf_map,mf_account,mf_admin</p></article>' +
        '</div>',
    );
    // The exposed module's stylesheets, before the page paints; not those of pages loaded later.
    expect(html).toContain('<link rel="stylesheet" href="/remotes/mf-account/__federation_expose_app.0123abcd.css">');
    expect(html).not.toContain('page.0123abcd.css');
    expect(html.indexOf('rel="stylesheet"')).toBeLessThan(html.indexOf('</head>'));
    // The policy still runs only the page's own scripts: the rendering brings none.
    const nonce = /'nonce-([^']+)'/.exec(String(answer.headers['content-security-policy']))?.[1];
    expect(nonce).toBeTruthy();
    for (const script of html.match(/<script[^>]*>/g) ?? []) expect(script).toContain(`nonce="${nonce}"`);
  });

  it('leaves the page to the browser when the remote renders no such page, or has no server build', async () => {
    for (const url of ['/user', '/edit/webcams', '/nowhere']) {
      const html = (await gateway.inject({ url })).body;
      expect(mainOf(html), url).toBe('');
      expect(html, url).not.toContain('rel="stylesheet"');
    }
  });

  it('falls back to the page rendered in the browser when the server build throws, and says why in the log', async () => {
    logged.length = 0;
    const answer = await gateway.inject({ url: '/datenschutz' });
    expect(answer.statusCode).toBe(200);
    expect(mainOf(answer.body)).toBe('');
    expect(answer.body).not.toContain(SERVER_RENDERED_ATTRIBUTE);
    expect(logged).toEqual([
      expect.objectContaining({
        msg: expect.stringContaining('server rendering failed'),
        err: expect.objectContaining({ message: 'broken page' }),
      }),
    ]);
  });

  it('does not render for a browser that runs a remote from a dev server', async () => {
    const html = (await gateway.inject({ url: '/login?devRemote=mf_account@http://localhost:3001/mf-manifest.json' }))
      .body;
    expect(mainOf(html)).toBe('');
  });

  it('renders with the released build /remotes.json names, and again with the one before after a rollback', async () => {
    const releases = join(root, 'releases');
    await fakeBuild(join(releases, 'mf-account', 'v1'), loginRender('v1'));
    await fakeBuild(join(releases, 'mf-account', 'v2'), loginRender('v2'), ['app.89abcdef.css']);
    const point = async (version: string) => {
      await writeFile(
        join(releases, 'next.json'),
        JSON.stringify({ mf_account: `/releases/mf-account/${version}/mf-manifest.json` }),
      );
      await rename(join(releases, 'next.json'), join(releases, 'remotes.json'));
    };
    await point('v2');
    let html = (await gateway.inject({ url: '/login' })).body;
    expect(mainOf(html)).toContain('<p>v2 /login');
    expect(html).toContain('<link rel="stylesheet" href="/releases/mf-account/v2/app.89abcdef.css">');
    await point('v1');
    html = (await gateway.inject({ url: '/login' })).body;
    expect(mainOf(html)).toContain('<p>v1 /login');
    expect(html).not.toContain('rel="stylesheet"');
    await rm(join(releases, 'remotes.json'));
    expect(mainOf((await gateway.inject({ url: '/login' })).body)).toContain('<p>gebaut /login');
  });

  it("links the stylesheet of the lazy page's chunk the build names, not the other pages' ones", async () => {
    const render = `${loginRender('mit Seite')}
      export const chunks = (url) => (url.startsWith('/login') ? ['login-page'] : []);`;
    await fakeBuild(
      join(root, 'mf-account', 'dist'),
      render,
      ['__federation_expose_app.0123abcd.css'],
      ['login-page.89abcdef.css', 'login-page-extra.89abcdef.css', 'user-page.0123abcd.css'],
    );
    const html = (await gateway.inject({ url: '/login' })).body;
    const links = html.match(/<link rel="stylesheet" href="[^"]+">/g);
    expect(links).toEqual([
      '<link rel="stylesheet" href="/remotes/mf-account/__federation_expose_app.0123abcd.css">',
      '<link rel="stylesheet" href="/remotes/mf-account/login-page.89abcdef.css">',
    ]);
  });

  it('puts small stylesheets into the page itself, and links those with relative URLs', async () => {
    const dir = join(root, 'mf-account', 'dist');
    await writeFile(join(dir, 'app.11111111.css'), '.login{color:red}');
    await writeFile(join(dir, 'icons.22222222.css'), '.icon{background:url(icon.png)}');
    await fakeBuild(dir, loginRender('inline'), ['app.11111111.css', 'icons.22222222.css']);
    const html = (await gateway.inject({ url: '/login' })).body;
    expect(html).toContain('<style data-href="/remotes/mf-account/app.11111111.css">.login{color:red}</style>');
    expect(html).toContain('<link rel="stylesheet" href="/remotes/mf-account/icons.22222222.css">');
    expect(html.indexOf('data-href=')).toBeLessThan(html.indexOf('</head>'));
  });

  it('takes a build rebuilt in place at the next page', async () => {
    await fakeBuild(join(root, 'mf-account', 'dist'), loginRender('neu gebaut'));
    expect(mainOf((await gateway.inject({ url: '/login' })).body)).toContain('<p>neu gebaut /login');
  });
});

/** A gateway over stand-in services, serving a built shell from a folder of its own that `close` removes. */
async function stubGateway(
  prefix: string,
  routes: Parameters<typeof stubServices>[0],
  prepare?: (root: string) => Promise<void>,
): Promise<{ gateway: FastifyInstance; close: () => Promise<void> }> {
  const root = await builtShellRoot(prefix);
  await prepare?.(root);
  const stubs = await stubServices(routes);
  const gateway = await buildGateway({
    logger: createLogger('error', 'test'),
    targets: stubs.targets,
    frontendRoot: root,
    remotes: {},
  });
  return {
    gateway,
    close: async () => {
      await gateway.close();
      await stubs.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** A shell server build that shows what the gateway handed it. */
const chromeRender = `
  export function renderChrome(path, data, visitor) {
    return {
      header: '<header>Kopf ' + path + '</header><aside>' + data.news + '</aside>',
      footer: '<footer>Fuss</footer>' + (visitor.cookieNoticeAccepted ? '' : '<section>Cookies?</section>'),
    };
  }`;

describe('the chrome rendered on the server', () => {
  let gateway: FastifyInstance;
  let close: (() => Promise<void>) | undefined;
  let news = 'Seeüberquerung am Samstag';

  beforeAll(async () => {
    ({ gateway, close } = await stubGateway(
      'lakecams-chrome-render-',
      (service, app) => {
        if (service === 'webcam') app.get(NEWS_PATH, async (_request, reply) => reply.type('text/plain').send(news));
      },
      async (root) => {
        const server = join(root, 'shell', 'dist', SERVER_RENDER_FILE);
        await mkdir(dirname(server), { recursive: true });
        await writeFile(server, chromeRender);
      },
    ));
  });

  afterAll(async () => {
    await close?.();
  });

  const containers = (html: string) => ({
    header: /<div id="shell-header"([^>]*)>([\s\S]*?)<\/div>\s*<main/.exec(html)?.slice(1),
    footer: /<div id="shell-footer"([^>]*)>([\s\S]*?)<\/div>\s*<noscript/.exec(html)?.slice(1),
  });

  it('puts header, news and footer with the cookie notice into their containers, marked for the path', async () => {
    const html = (await gateway.inject({ url: '/webcams?x=1' })).body;
    const { header, footer } = containers(html);
    expect(header).toEqual([
      ` ${SERVER_RENDERED_ATTRIBUTE}="/webcams"`,
      '<header>Kopf /webcams</header><aside>Seeüberquerung am Samstag</aside>',
    ]);
    expect(footer).toEqual([
      ` ${SERVER_RENDERED_ATTRIBUTE}="/webcams"`,
      '<footer>Fuss</footer><section>Cookies?</section>',
    ]);
    // The same text for the browser's first render, which hydrates it.
    expect(html).toContain(`id="${PAGE_DATA_IDS.news}">"Seeüberquerung am Samstag"</script>`);
  });

  it('sends the page compressed to a browser that takes it, Brotli first', async () => {
    const plain = (await gateway.inject({ url: '/webcams' })).body;
    const br = await gateway.inject({ url: '/webcams', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    const html = brotliDecompressSync(br.rawPayload).toString('utf8');
    expect(html).toContain('<header>Kopf /webcams</header>');
    expect(br.rawPayload.length).toBeLessThan(plain.length / 2);
    const gzip = await gateway.inject({ url: '/webcams', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toContain('<footer>Fuss</footer>');
  });

  it('leaves the cookie notice out once the visitor accepted it, and shows the news of the moment', async () => {
    news = 'Sturmwarnung';
    const html = (await gateway.inject({ url: '/', headers: { cookie: `a=b; ${COOKIE_NOTICE_COOKIE}=yes` } })).body;
    expect(containers(html).footer?.[1]).toBe('<footer>Fuss</footer>');
    expect(containers(html).header?.[1]).toContain('<aside>Sturmwarnung</aside>');
  });
});

describe("a camera page's first view", () => {
  let gateway: FastifyInstance;
  let close: (() => Promise<void>) | undefined;
  const cookies: (string | undefined)[] = [];

  beforeAll(async () => {
    ({ gateway, close } = await stubGateway('lakecams-first-view-', (service, app) => {
      if (service === 'webcam')
        app.get('/api/Webcam/GetImages', async () => [
          {
            webcam: {
              id: 1,
              name: 'Halbinsel-Au',
              pattern: '',
              distance: 3,
              angle: 60,
              intervalMin: 10,
              webcamType: 'STATIC',
            },
            images: [{ lat: 47.2, lng: 8.7, direction: 90, name: '202611271400', webcamId: 1 }],
          },
        ]);
      if (service === 'imaging')
        app.get('/api/Image/Get/camera/:name/:image', async (request, reply) => {
          cookies.push(request.headers.cookie);
          const level = request.headers.cookie?.includes('lakecams_access') ? 'LOW' : 'POOR';
          const format = request.headers.accept?.includes('avif') ? 'avif' : 'jpg';
          return reply.redirect(`/pictures/Halbinsel-Au/202611271400-${level}.${format}`, 302);
        });
    }));
  });

  afterAll(async () => {
    await close?.();
  });

  it("names the picture the visitor's redirect leads to, saving the browser that round trip", async () => {
    const anonymous = (await gateway.inject({ url: '/webcam/Halbinsel-Au' })).body;
    expect(anonymous).toContain(
      '<picture><source type="image/avif" srcset="/pictures/Halbinsel-Au/202611271400-POOR.avif">' +
        '<img src="/pictures/Halbinsel-Au/202611271400-POOR.jpg"',
    );
    const signedIn = (
      await gateway.inject({ url: '/webcam/Halbinsel-Au', headers: { cookie: 'lakecams_access=token' } })
    ).body;
    expect(signedIn).toContain('<img src="/pictures/Halbinsel-Au/202611271400-LOW.jpg"');
    expect(cookies.slice(-3)).toEqual(['lakecams_access=token', 'lakecams_access=token', 'lakecams_access=token']);
    // The share preview keeps the address everybody may use.
    expect(anonymous).toContain('/api/Image/Get/camera/Halbinsel-Au/202611271400.jpg');
  });
});

describe('where a server build is looked for', () => {
  it('is only a build this gateway serves from disk', () => {
    expect(localBuildDir('/remotes/mf-map/mf-manifest.json', '/srv')).toBe('/srv/mf-map/dist');
    expect(localBuildDir('/releases/mf-map/0.1.0-20261125T120000Z/mf-manifest.json', '/srv')).toBe(
      '/srv/releases/mf-map/0.1.0-20261125T120000Z',
    );
    for (const url of [
      'https://cdn.example/mf-map/mf-manifest.json',
      '//cdn.example/mf-map/mf-manifest.json',
      '/remotes/mf-unknown/mf-manifest.json',
      '/remotes/../../etc/mf-manifest.json',
      '/releases/../shell/mf-manifest.json',
      '/releases/mf-map/%2e%2e/mf-manifest.json',
      '/releases/mf-manifest.json',
      '/remotes/mf-map/remoteEntry.js',
      'mf-manifest.json',
    ])
      expect(localBuildDir(url, '/srv'), url).toBeNull();
  });

  it('writes the path it rendered for escaped, and needs an empty <main>', () => {
    const rendering = { remote: 'mf_map' as const, path: '/x"><b>', markup: '<p>x</p>', stylesheets: [] };
    expect(withServerRendering('<head></head><main id="main" tabindex="-1"></main>', rendering)).toBe(
      `<head></head><main id="main" tabindex="-1"><div id="remote-mf_map" class="remote-outlet" ${SERVER_RENDERED_ATTRIBUTE}="/x&quot;&gt;&lt;b&gt;"><p>x</p></div></main>`,
    );
    const withFirstView = '<main id="main"><div id="first-view"></div></main>';
    expect(withServerRendering(withFirstView, rendering)).toBe(withFirstView);
  });
});

describe("what the gateway gives the remotes' server builds", () => {
  it('is React, React DOM and react-router at the versions every remote builds with', async () => {
    const manifest = async (folder: string) =>
      JSON.parse(await readFile(new URL(`../../${folder}/package.json`, import.meta.url), 'utf8')) as {
        dependencies: Record<string, string>;
      };
    const gateway = (await manifest('gateway')).dependencies;
    for (const folder of REMOTES.map((remote) => remote.folder)) {
      const remote = (await manifest(folder)).dependencies;
      for (const name of ['react', 'react-dom', 'react-router'])
        expect(gateway[name], `${name} in gateway and ${folder}`).toBe(remote[name]);
    }
  });
});
