import { createInProcessBus } from '@lakecams/bus';
import { CameraDeleted, ImageListed } from '@lakecams/contracts/messages';
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

it('tells open pages of each camera an administrator deletes, not of deletions before they connected', async () => {
  const bus = createInProcessBus();
  onTestFinished(() => bus.close());
  // Deleted before the gateway started: the gateway reads it while following, no page hears it.
  await bus.publishEvent(CameraDeleted.subject, { id: 3, name: 'Alt' });
  const app = Fastify();
  onTestFinished(() => app.close());
  await app.register(liveEventsPlugin, { bus });
  const url = new URL('/api/Events/stream', await app.listen({ host: '127.0.0.1', port: 0 }));
  const frames = await openStream(url);
  await frames.next('retry: 5000');
  await bus.publishEvent(CameraDeleted.subject, { id: 7, name: 'Richterswil', pattern: 'http://cam/x.jpg' });
  await bus.publishEvent(CameraDeleted.subject, { id: 8 });
  expect(await frames.next('"webcamId":8')).toBe(
    'retry: 5000\n\n' +
      'event: removed\ndata: {"webcamId":7,"camera":"Richterswil"}\n\n' +
      'event: removed\ndata: {"webcamId":8}\n\n',
  );
});

it('streams each new picture with whether it is frozen, which the camera page turns offline by', async () => {
  const bus = createInProcessBus();
  onTestFinished(() => bus.close());
  const app = Fastify();
  onTestFinished(() => app.close());
  await app.register(liveEventsPlugin, { bus });
  const url = new URL('/api/Events/stream', await app.listen({ host: '127.0.0.1', port: 0 }));
  const frames = await openStream(url);
  await frames.next('retry: 5000');
  const image = { webcamId: 4, name: '202611221210', lat: 47.2, lng: 8.7, direction: 30 };
  await bus.publish(ImageListed.subject, { ...image, frozen: true });
  await bus.publish(ImageListed.subject, { ...image, name: '202611221220', frozen: false });
  expect(await frames.next('"frozen":false')).toBe(
    'retry: 5000\n\n' +
      `event: image\ndata: ${JSON.stringify({ ...image, frozen: true })}\n\n` +
      `event: image\ndata: ${JSON.stringify({ ...image, name: '202611221220', frozen: false })}\n\n`,
  );
});

/** Reads a stream as it arrives; `next(text)` waits until the body so far holds `text` and answers it. The request ends with the test. */
async function openStream(url: URL) {
  let body = '';
  let waiting: (() => void) | undefined;
  const req = request(url, (response) => {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      body += chunk;
      waiting?.();
    });
  });
  req.on('error', () => {});
  req.end();
  onTestFinished(() => void req.destroy());
  return {
    async next(text: string): Promise<string> {
      while (!body.includes(text)) await new Promise<void>((resolve) => (waiting = resolve));
      return body;
    },
  };
}
