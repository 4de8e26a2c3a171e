import { DEV_REMOTE_COOKIE } from '@lakecams/contracts';
import { createLogger } from '@lakecams/service-kit';
import type { FastifyInstance } from 'fastify';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';
import { contentSecurityPolicy, framingOf, tileOrigins } from '../src/security-headers.ts';
import { builtShellRoot, stubServices } from './shell-fixture.ts';

type Headers = Record<string, string | string[] | number | undefined>;

/** A policy as directive → sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name as string, sources]),
  );
}

/**
 * The grade Mozilla's HTTP Observatory gives a site's front page over https, by its published scoring
 * (score 100 plus or minus each test's modifier; bonuses only from 90 up; A from 90, A+ from 100). Redirection and
 * the HSTS preload list depend on the deployment's TLS proxy and are left out.
 */
function observatoryScore(headers: Headers): { score: number; findings: string[] } {
  const findings: string[] = [];
  let penalties = 0;
  let bonuses = 0;
  const header = (name: string) => (headers[name] === undefined ? undefined : String(headers[name]));
  const csp = header('content-security-policy');
  if (!csp) {
    penalties -= 25;
    findings.push('no CSP');
  } else {
    const policy = directives(csp);
    const script = new Set(policy.get('script-src') ?? policy.get('default-src') ?? ['*']);
    const object = policy.get('object-src') ?? policy.get('default-src') ?? ['*'];
    const style = policy.get('style-src') ?? policy.get('default-src') ?? ['*'];
    const broad = ['ftp:', 'http:', 'https:', '*', 'http://*', 'https://*'];
    const hasNonceOrHash = [...script].some((s) => /^'(nonce|sha256|sha384|sha512)-/.test(s));
    if (hasNonceOrHash && script.has("'strict-dynamic'")) {
      for (const source of [...script]) {
        if (broad.some((b) => source.startsWith(b)) || source === "'self'" || source === "'unsafe-inline'")
          script.delete(source);
      }
    }
    const active = [...policy.entries()]
      .filter(([name]) => !['img-src', 'media-src', 'script-src'].includes(name))
      .flatMap(([, sources]) => sources)
      .concat([...script]);
    if (
      [...script].some((s) => [...broad, "'unsafe-inline'", 'data:'].includes(s)) ||
      object.some((s) => broad.includes(s))
    ) {
      penalties -= 20;
      findings.push('CSP: unsafe-inline, data: or broad sources for scripts or objects');
    } else if (active.some((s) => s.startsWith('http:') || s.startsWith('ftp:'))) {
      penalties -= 20;
      findings.push('CSP: http: sources for active content');
    } else if ([...script, ...style].includes("'unsafe-eval'")) {
      penalties -= 10;
      findings.push('CSP: unsafe-eval');
    } else if (style.some((s) => [...broad, "'unsafe-inline'", 'data:'].includes(s))) {
      findings.push('CSP: unsafe-inline in style-src only (no penalty)');
    } else bonuses += 5;
    if (policy.get('frame-ancestors')?.every((s) => !broad.includes(s))) bonuses += 5;
  }
  if (!csp?.includes('frame-ancestors') && !/^(deny|sameorigin)$/i.test(header('x-frame-options') ?? '')) {
    penalties -= 20;
    findings.push('framing allowed');
  }
  if (header('x-content-type-options')?.toLowerCase() !== 'nosniff') {
    penalties -= 5;
    findings.push('no nosniff');
  }
  const referrer = header('referrer-policy')?.toLowerCase();
  if (referrer && ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'].includes(referrer))
    bonuses += 5;
  else if (referrer === 'unsafe-url' || referrer === 'no-referrer-when-downgrade') penalties -= 5;
  const hsts = /max-age=(\d+)/.exec(header('strict-transport-security') ?? '');
  if (!hsts) {
    penalties -= 20;
    findings.push('no HSTS');
  } else if (Number(hsts[1]) < 15_552_000) {
    penalties -= 10;
    findings.push('HSTS under six months');
  }
  const cookies = [headers['set-cookie'] ?? []].flat().map(String);
  if (cookies.length > 0) {
    const attributes = (cookie: string) =>
      cookie
        .toLowerCase()
        .split(';')
        .map((part) => part.trim());
    const session = (cookie: string) => /sess|sid|token|auth/i.test(cookie.split('=')[0] ?? '');
    if (cookies.some((cookie) => !attributes(cookie).includes('secure'))) {
      penalties -= 20;
      findings.push('cookie without Secure');
    } else if (
      cookies.some((cookie) => session(cookie) && !attributes(cookie).includes('httponly') && !/xsrf/i.test(cookie))
    ) {
      penalties -= 30;
      findings.push('session cookie without HttpOnly');
    } else if (cookies.every((cookie) => attributes(cookie).some((a) => a.startsWith('samesite=')))) bonuses += 5;
  }
  const base = 100 + penalties;
  return { score: base + (base >= 90 ? bonuses : 0), findings };
}

describe('the policy', () => {
  it('runs no inline script and no eval, loads no plugins, sets no base and is framed by nobody', () => {
    const policy = directives(
      contentSecurityPolicy({ remotes: [], tiles: [], pictures: [], dev: [] }, { nonce: 'abc' }),
    );
    expect(policy.get('script-src')).toEqual(["'nonce-abc'", "'strict-dynamic'", "'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
    for (const [name, sources] of policy) expect(sources, name).not.toContain("'unsafe-eval'");
    expect(policy.get('script-src')).not.toContain("'unsafe-inline'");
  });

  it('names tile hosts with their subdomain placeholders as wildcards', () => {
    expect(tileOrigins('https://{s}.tile.Example.org/{z}/{x}/{y}.png')).toEqual(['https://*.tile.example.org']);
    expect(tileOrigins('/tiles/{z}/{x}/{y}.png')).toEqual([]);
  });

  it('lets anybody frame pictures, the portal frame the job dashboard, and nobody anything else', () => {
    expect(framingOf('/pictures/Au/202611251310-POOR-abc.jpg')).toBe('anyone');
    expect(framingOf('/api/Image/Get/camera/Au.jpg')).toBe('anyone');
    expect(framingOf('/api/Jobs/dashboard')).toBe('portal');
    expect(framingOf('/api/Jobs/dashboard/x')).toBe('nobody');
    expect(framingOf('/edit/webcams')).toBe('nobody');
    expect(framingOf('/jobs')).toBe('nobody');
  });
});

describe('the gateway sends security headers with every answer', () => {
  let root: string;
  let closeServices: () => Promise<void>;
  let gateway: FastifyInstance;
  let httpsGateway: FastifyInstance;

  beforeAll(async () => {
    root = await builtShellRoot('lakecams-security-headers-');
    const stubs = await stubServices((service, app) => {
      if (service === 'webcam') app.get('/api/Webcam/GetImages', async () => []);
      if (service === 'imaging') {
        app.get('/api/Jobs/dashboard', async (_request, reply) => reply.type('text/html').send('<!doctype html>'));
        app.get('/api/Image/Get/camera/:file', async (_request, reply) => reply.redirect('/pictures/x.jpg', 302));
      }
    });
    closeServices = stubs.close;
    const common = {
      logger: createLogger('silent'),
      targets: stubs.targets,
      frontendRoot: root,
      remotes: {
        mf_map: 'https://cdn.example/mf-map/mf-manifest.json',
        mf_admin: '/remotes/mf-admin/mf-manifest.json',
      },
      mapTiles: { url: 'https://{s}.tiles.example/{z}/{x}/{y}.jpg', attribution: '' },
      pictureBaseUrl: 'https://pictures.example',
    };
    gateway = await buildGateway(common);
    httpsGateway = await buildGateway({ ...common, secureCookies: true });
  });

  afterAll(async () => {
    await gateway?.close();
    await httpsGateway?.close();
    await closeServices?.();
    await rm(root, { recursive: true, force: true });
  });

  const headersOf = async (url: string, app = gateway, cookie?: string) =>
    (await app.inject({ url, headers: cookie ? { cookie } : {} })).headers;

  it('pages, the API reference, JSON, files and refusals: nosniff, a referrer policy, a policy, not framed', async () => {
    for (const url of [
      '/',
      '/webcam/Au',
      '/login',
      '/edit/webcams',
      '/api/docs',
      '/api/Webcam/GetImages',
      '/remotes.json',
      '/config.json',
      '/favicon.svg',
      '/api/Nope',
      '/nope.js',
    ]) {
      const headers = await headersOf(url);
      expect(headers['x-content-type-options'], url).toBe('nosniff');
      expect(headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(headers['x-frame-options'], url).toBe('DENY');
      expect(directives(String(headers['content-security-policy'])).get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it("gives each page a nonce of its own that every script of the page carries, and the remotes' origins", async () => {
    const first = await gateway.inject({ url: '/webcams' });
    const second = await gateway.inject({ url: '/webcams' });
    const policy = directives(String(first.headers['content-security-policy']));
    const nonce = /^'nonce-(.+)'$/.exec(policy.get('script-src')?.[0] ?? '')?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/=]{22,}$/);
    expect(policy.get('script-src')).toEqual([`'nonce-${nonce}'`, "'strict-dynamic'", "'self'", 'https://cdn.example']);
    expect(policy.get('img-src')).toEqual(
      expect.arrayContaining(['https://*.tiles.example', 'https://pictures.example']),
    );
    const scripts = [...first.body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(second.headers['content-security-policy']).not.toBe(first.headers['content-security-policy']);
  });

  it("allows a developer's machine only to a browser that asked for a dev remote", async () => {
    const plain = String((await headersOf('/'))['content-security-policy']);
    expect(plain).not.toContain('localhost');
    expect(
      String((await headersOf('/?devRemote=mf-map@http://localhost:3101/mf-manifest.json'))['content-security-policy']),
    ).toContain('http://localhost:*');
    expect(
      String((await headersOf('/webcams', gateway, `${DEV_REMOTE_COOKIE}=1`))['content-security-policy']),
    ).toContain('http://localhost:*');
    const frame = await headersOf('/api/Jobs/dashboard', gateway, `other=1; ${DEV_REMOTE_COOKIE}=1`);
    expect(directives(String(frame['content-security-policy'])).get('script-src')).toContain('http://localhost:*');
  });

  it('lets partners frame pictures and the portal frame the job dashboard', async () => {
    const dashboard = await headersOf('/api/Jobs/dashboard');
    expect(dashboard['x-frame-options']).toBe('SAMEORIGIN');
    expect(directives(String(dashboard['content-security-policy'])).get('frame-ancestors')).toEqual(["'self'"]);
    const picture = await headersOf('/api/Image/Get/camera/Au.jpg');
    expect(picture['x-frame-options']).toBeUndefined();
    expect(String(picture['content-security-policy'])).not.toContain('frame-ancestors');
    expect(picture['x-content-type-options']).toBe('nosniff');
  });

  it("over https: HSTS, and grade A or better by the HTTP Observatory's scoring", async () => {
    const headers = await headersOf('/', httpsGateway);
    expect(headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
    expect(headers['set-cookie']).toBeDefined();
    const { score, findings } = observatoryScore(headers);
    expect(score, findings.join('; ')).toBeGreaterThanOrEqual(90);
    // Without the headers the same page scores an F: the check can fail.
    expect(observatoryScore({ 'set-cookie': headers['set-cookie'] }).score).toBeLessThan(50);
  });
});
