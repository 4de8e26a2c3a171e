import { createInProcessBus } from '@lakecams/bus';
import Fastify from 'fastify';
import { request } from 'node:http';
import { expect, it, onTestFinished } from 'vitest';
import { liveEventsPlugin } from '../src/plugins/live-events.ts';

it('closes while a page still holds its event stream open, ending the stream', async () => {
  const bus = createInProcessBus();
  onTestFinished(() => bus.close());
  const app = Fastify();
  await app.register(liveEventsPlugin, { bus });
  const url = new URL('/api/Events/stream', await app.listen({ host: '127.0.0.1', port: 0 }));
  const opened = Promise.withResolvers<void>();
  const ended = new Promise<string>((resolve, reject) => {
    const req = request(url, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
        opened.resolve();
      });
      response.on('end', () => resolve(body));
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
  // The first frame arrived: the stream is open while the app closes.
  await opened.promise;
  await app.close();
  expect(await ended).toContain('retry: 5000');
});
