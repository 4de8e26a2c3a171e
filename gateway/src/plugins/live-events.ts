import { type Bus, type Subscription, typedBus } from '@lakecams/bus';
import { CameraDeleted, ImageListed } from '@lakecams/contracts/messages';
import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';

const KEEPALIVE_MS = 25_000;

/** What a `removed` event carries: the deleted camera's id, and its name when the bus told it. */
export interface CameraRemoval {
  webcamId: number;
  camera?: string;
}

/**
 * `GET /api/Events/stream`: server-sent events to open pages. Each new image becomes an `image` event and
 * each camera an administrator deletes a `removed` event, so maps, lists and camera pages follow without
 * reloading (docs/product.md §4.8).
 */
export async function liveEventsPlugin(app: FastifyInstance, options: { bus: Bus }) {
  const clients = new Set<ServerResponse>();
  const broadcast = (event: string, data: unknown) => {
    const frame = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const client of clients) client.write(frame);
  };
  const bus = typedBus(options.bus, app.log);
  const subscriptions: Subscription[] = [await bus.subscribe(ImageListed, (image) => broadcast('image', image))];
  // A deletion is a durable event, which core subscribers never see: every gateway replica follows it. The
  // deletions stored before are read first, while no page is connected yet, so they reach nobody.
  subscriptions.push(
    await bus.follow(CameraDeleted, ({ id, name }) => {
      const removal: CameraRemoval = name === undefined ? { webcamId: id } : { webcamId: id, camera: name };
      broadcast('removed', removal);
    }),
  );
  const keepalive = setInterval(() => {
    for (const client of clients) client.write(': keepalive\n\n');
  }, KEEPALIVE_MS);
  keepalive.unref();

  app.get('/api/Events/stream', { schema: { hide: true } }, (request, reply) => {
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // A HEAD answer has no body, so it would never be sent while the stream stays open.
    if (request.method === 'HEAD') return void response.end();
    response.write('retry: 5000\n\n');
    clients.add(response);
    request.raw.on('close', () => clients.delete(response));
  });

  // preClose, not onClose: the server waits for open streams before onClose hooks run.
  app.addHook('preClose', async () => {
    clearInterval(keepalive);
    for (const client of clients) client.end();
    clients.clear();
  });
  app.addHook('onClose', async () => {
    await Promise.all(subscriptions.splice(0).map((subscription) => subscription.unsubscribe()));
  });
}
