import { antiForgeryFrom, antiForgeryHeaders } from '@lakecams/service-kit/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { antiForgeryPlugin, antiForgeryToken } from '../src/plugins/anti-forgery.ts';

const SECRET = 'a-secret-of-the-gateway-replicas-0123456789';

async function gateway(secureCookie: boolean): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(antiForgeryPlugin, { secureCookie, secret: SECRET });
  app.get('/api/News/News/news', async () => 'news');
  app.post('/api/Register/Update', async () => 'done');
  app.get('/*', async () => 'a page or a file');
  return app;
}

describe('signed double-submit anti-forgery', () => {
  let http: FastifyInstance;
  let https: FastifyInstance;
  beforeAll(async () => {
    http = await gateway(false);
    https = await gateway(true);
  });
  afterAll(async () => {
    await http.close();
    await https.close();
  });

  const newBrowser = async (app: FastifyInstance) =>
    antiForgeryFrom((await app.inject({ url: '/api/News/News/news' })).cookies.map((c) => `${c.name}=${c.value}`));
  const post = (app: FastifyInstance, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/api/Register/Update', headers }).then((answer) => answer.statusCode);

  it("gives the cookies with pages and API answers, not with pictures or the front ends' files", async () => {
    const cookiesOf = async (url: string) => (await http.inject({ url })).cookies.map((c) => c.name).sort();
    for (const url of [
      '/',
      '/webcams',
      '/webcam/Rapperswil-Seedamm?t=202611251200',
      '/health',
      '/api/News/News/news',
    ]) {
      expect(await cookiesOf(url), url).toEqual(['XSRF-TOKEN', 'lakecams_sid']);
    }
    for (const url of [
      '/main.4e3bbda7.js',
      '/remotes/mf-map/__federation_expose_app.29616bdf.css',
      '/remotes/mf-map/mf-manifest.json?v=2',
      '/favicon.svg',
      '/manifest.webmanifest',
      '/pictures/Rapperswil-Seedamm/202611251200-POOR-0ca6eeb20dbe.jpg',
      '/api/Image/Get/camera/Rapperswil-Seedamm.jpg',
    ]) {
      expect(await cookiesOf(url), url).toEqual([]);
    }
  });

  it('accepts the token echoed with the session it was signed for', async () => {
    const pair = await newBrowser(http);
    expect(pair).toBeDefined();
    expect(await post(http, antiForgeryHeaders(pair as NonNullable<typeof pair>))).toBe(200);
  });

  it("refuses a planted token, even echoed: unsigned, another browser's, or signed with another secret", async () => {
    const victim = (await newBrowser(http)) as NonNullable<Awaited<ReturnType<typeof newBrowser>>>;
    const attacker = (await newBrowser(http)) as typeof victim;
    const session = victim.cookie.split('; ')[0] as string;
    const sessionId = session.split('=')[1] as string;
    const planted = [
      'Zm9yZ2VkLWJ1dC13ZWxsLWZvcm1lZC10b2tlbg.c2lnbmF0dXJlLW9mLW5vYm9keS1hdC1hbGwtZm9yLXN1cmU',
      attacker.token,
      antiForgeryToken('another-secret-another-secret-0123456789', sessionId),
    ];
    for (const token of planted) {
      expect(await post(http, { cookie: `${session}; XSRF-TOKEN=${token}`, 'x-xsrf-token': token }), token).toBe(403);
    }
    // A browser with a planted token gets a signed one in its place on its next request.
    const next = await http.inject({ url: '/api/News/News/news', headers: { cookie: `${session}; XSRF-TOKEN=x.y` } });
    const reissued = next.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value as string;
    expect(next.cookies.map((c) => c.name)).toEqual(['XSRF-TOKEN']);
    expect(await post(http, { cookie: `${session}; XSRF-TOKEN=${reissued}`, 'x-xsrf-token': reissued })).toBe(200);
  });

  it('over https names the cookies __Host- (Secure, Path=/, no Domain) and reads no others', async () => {
    const answer = await https.inject({ url: '/api/News/News/news' });
    expect(answer.headers['set-cookie']).toEqual([
      expect.stringMatching(/^__Host-lakecams_sid=[\w-]{43}; Path=\/; SameSite=Strict; Secure; HttpOnly$/),
      expect.stringMatching(/^__Host-XSRF-TOKEN=[\w-]{32}\.[\w-]{43}; Path=\/; SameSite=Strict; Secure$/),
    ]);
    const pair = antiForgeryFrom(answer.cookies.map((c) => `${c.name}=${c.value}`)) as NonNullable<
      ReturnType<typeof antiForgeryFrom>
    >;
    expect(await post(https, antiForgeryHeaders(pair))).toBe(200);
    // The same values under the names a sibling subdomain could set over http do not count.
    const unprefixed = pair.cookie.replaceAll('__Host-', '');
    expect(await post(https, { cookie: unprefixed, 'x-xsrf-token': pair.token })).toBe(403);
  });
});
