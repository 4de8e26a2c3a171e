import { SERVICES } from '@lakecams/contracts';
import { createLogger } from '@lakecams/service-kit';
import type { FastifyInstance } from 'fastify';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';
import { hasDotSegment } from '../src/plugins/api-routing.ts';
import type { ServiceTargets } from '../src/service-targets.ts';

describe('paths with dot segments', () => {
  it('are told apart from names that merely hold dots', () => {
    for (const path of [
      '/api/Webcam/../../health',
      '/api/Webcam/%2E%2e/Authenticate/Roles/roles',
      '/api/Webcam/.',
      '/api/Webcam\\..\\x',
      '/api/Webcam/%2e%2E%2fx',
    ])
      expect(hasDotSegment(path), path).toBe(true);
    for (const path of [
      '/api/Webcam/GetImages?name=../x',
      '/api/Image/Get/camera/A.B.jpg',
      '/api/Referer/GetLayer/layer...',
    ])
      expect(hasDotSegment(path), path).toBe(false);
  });
});

describe('the gateway in front of services on other hosts', () => {
  let service: Server;
  let gateway: FastifyInstance;
  const received: string[] = [];
  let gatewayUrl = '';

  beforeAll(async () => {
    service = createServer((request, response) => {
      received.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    const targets = Object.fromEntries(SERVICES.map((name) => [name, { kind: 'remote', urls: [url] }]));
    gateway = await buildGateway({
      logger: createLogger('silent'),
      targets: targets as unknown as ServiceTargets,
      frontendRoot: join(tmpdir(), 'lakecams-nothing-built-here'),
      remotes: {},
    });
    gatewayUrl = await gateway.listen({ host: '127.0.0.1', port: 0 });
  });

  afterAll(async () => {
    await gateway?.close();
    service.closeAllConnections();
    await new Promise((resolve) => service.close(resolve));
  });

  /** A request with its path exactly as written (fetch and inject would resolve the dots first). */
  const rawGet = async (path: string) => {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(gatewayUrl, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on('error', reject);
      request.path = path;
      request.end();
    });
  };
  it("never hands a service a path outside /api, nor another service's path", async () => {
    for (const url of [
      '/api/Webcam/../../health',
      '/api/Webcam/%2e%2e/%2e%2e/ready',
      '/api/Webcam/../Authenticate/Roles/roles',
    ]) {
      const answer = await rawGet(url);
      expect([url, answer.status, JSON.parse(answer.body).message]).toEqual([
        url,
        404,
        expect.stringMatching(/^No service answers/),
      ]);
    }
    expect(received).toEqual([]);
    expect((await rawGet('/api/Webcam/GetImages')).status).toBe(200);
    expect(received).toEqual(['/api/Webcam/GetImages']);
  });
});
