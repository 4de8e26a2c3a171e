import { createLogger } from '@lakecams/service-kit';
import type { FastifyInstance } from 'fastify';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';
import { builtShellRoot, stubServices } from './shell-fixture.ts';

/** The embedded player as the gateway serves it to partner pages of any origin (docs/decisions.md). */
describe("the embedded player's files, frame and cross-origin reads", () => {
  let root: string;
  let closeServices: () => Promise<void>;
  let gateway: FastifyInstance;

  beforeAll(async () => {
    root = await builtShellRoot('lakecams-embed-player-');
    const dist = join(root, 'embed', 'dist');
    await mkdir(dist, { recursive: true });
    await writeFile(join(dist, 'v1.js'), 'import"./player.0123abcd.js";\n');
    await writeFile(
      join(dist, 'player.0123abcd.js'),
      'customElements.define("seecam-player", class extends HTMLElement {});',
    );
    const stubs = await stubServices((service, app) => {
      if (service === 'webcam') {
        app.get('/api/Webcam/GetImages', async () => []);
        app.get('/api/Webcam/GetImageHistory', async () => ({ camera: 'Au', day: '2026-11-27', days: [], images: [] }));
      }
      if (service === 'imaging') {
        app.get('/api/Image/Embed/camera/:camera', async (_request, reply) =>
          reply.type('text/html').send('<!doctype html><seecam-player camera="Au"></seecam-player>'),
        );
        app.get('/api/Image/EmbedView/camera/:camera', async () => ({ quality: 'POOR', booked: false }));
        app.get('/api/Image/Timelapse/camera/:camera/:file', async (_request, reply) =>
          reply.type('video/mp4').send(''),
        );
      }
    });
    closeServices = stubs.close;
    gateway = await buildGateway({
      logger: createLogger('silent'),
      targets: stubs.targets,
      frontendRoot: root,
      remotes: {},
      pictureBaseUrl: 'https://pictures.example',
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await closeServices?.();
    await rm(root, { recursive: true, force: true });
  });

  it('serves the stable entry briefly cached and the hashed player for good, to any origin, without cookies', async () => {
    const entry = await gateway.inject({ url: '/embed/v1.js', headers: { origin: 'https://partner.example' } });
    expect(entry.statusCode).toBe(200);
    expect(entry.body).toBe('import"./player.0123abcd.js";\n');
    expect(entry.headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=86400');
    expect(entry.headers['access-control-allow-origin']).toBe('*');
    expect(entry.headers['set-cookie']).toBeUndefined();
    const player = await gateway.inject({ url: '/embed/player.0123abcd.js' });
    expect(player.statusCode).toBe(200);
    expect(player.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(player.headers['access-control-allow-origin']).toBe('*');
    expect(player.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it("lets any web page frame the player's document, which runs only the portal's script", async () => {
    const frame = await gateway.inject({
      url: '/api/Image/Embed/camera/Au',
      headers: { referer: 'https://partner.example/' },
    });
    expect(frame.statusCode).toBe(200);
    expect(frame.headers['x-frame-options']).toBeUndefined();
    expect(frame.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https://pictures.example; media-src 'self' https://pictures.example; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors http: https:",
    );
    expect(frame.headers['set-cookie']).toBeUndefined();
    // The portal's own pages stay unframeable.
    expect((await gateway.inject({ url: '/' })).headers['x-frame-options']).toBe('DENY');
  });

  it('answers what the player reads across origins with a wildcard and no credentials, and nothing else', async () => {
    const history = await gateway.inject({ url: '/api/Webcam/GetImageHistory?name=Au' });
    expect(history.headers['access-control-allow-origin']).toBe('*');
    expect(history.headers['access-control-allow-credentials']).toBeUndefined();
    const list = await gateway.inject({ url: '/api/Webcam/GetImages' });
    expect(list.headers['access-control-allow-origin']).toBeUndefined();
    for (const url of ['/api/Image/EmbedView/camera/Au', '/api/Image/Timelapse/camera/Au/2026-11-27.mp4'])
      expect((await gateway.inject({ url })).headers['set-cookie'], url).toBeUndefined();
  });
});
