import { SERVICES } from '@lakecams/contracts';
import { createLogger, requestIdOf } from '@lakecams/service-kit';
import Fastify, { type FastifyInstance } from 'fastify';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';
import type { ServiceTarget, ServiceTargets } from '../src/service-targets.ts';

/** A service that answers with the request id it logs under, as buildServiceApp sets it up. */
async function echoService() {
  const app = Fastify({ requestIdHeader: false, genReqId: requestIdOf });
  app.get('/api/News/News/news', async (request) => request.id);
  await app.ready();
  return app;
}

const gatewayFor = (target: ServiceTarget) =>
  buildGateway({
    logger: createLogger('silent'),
    targets: Object.fromEntries(SERVICES.map((s) => [s, target])) as ServiceTargets,
    frontendRoot: tmpdir(),
    remotes: {},
  });

describe('a request id from the gateway through every service', () => {
  let local: FastifyInstance;
  let remote: FastifyInstance;
  let embedded: FastifyInstance;
  let distributed: FastifyInstance;
  beforeAll(async () => {
    local = await echoService();
    remote = await echoService();
    const url = await remote.listen({ host: '127.0.0.1', port: 0 });
    embedded = await gatewayFor({ kind: 'local', app: local });
    distributed = await gatewayFor({ kind: 'remote', urls: [url] });
  });
  afterAll(async () => {
    for (const app of [embedded, distributed, local, remote]) await app?.close();
  });

  it('keeps the id a caller sends, in the service and in the answer, in-process and over HTTP', async () => {
    for (const gateway of [embedded, distributed]) {
      const answer = await gateway.inject({ url: '/api/News/News/news', headers: { 'x-request-id': 'visit-42.a' } });
      expect([answer.body, answer.headers['x-request-id']]).toEqual(['visit-42.a', 'visit-42.a']);
    }
  });

  it('gives every other request an id of its own, also in place of one that is no sane id', async () => {
    for (const gateway of [embedded, distributed]) {
      const plain = await gateway.inject({ url: '/api/News/News/news' });
      const odd = await gateway.inject({ url: '/api/News/News/news', headers: { 'x-request-id': 'x'.repeat(65) } });
      for (const answer of [plain, odd]) {
        expect(answer.body).toMatch(/^[0-9a-f-]{36}$/);
        expect(answer.headers['x-request-id']).toBe(answer.body);
      }
      expect(plain.body).not.toBe(odd.body);
    }
  });
});
