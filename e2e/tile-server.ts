import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

export interface TileServer {
  /** Leaflet URL template, e.g. `http://127.0.0.1:1234/{z}/{x}/{y}.png`. */
  urlTemplate: string;
  /** How many tiles were asked for (the map really loaded its tiles). */
  requests(): number;
  close(): Promise<void>;
}

/** Map tiles for tests: the same green 256×256 PNG for every z/x/y, because test machines cannot fetch real ones. */
export async function startTileServer(): Promise<TileServer> {
  const tile = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#2b5d3a' } })
    .png()
    .toBuffer();
  let requests = 0;
  const server: Server = createServer((request, response) => {
    if (!/^\/\d+\/\d+\/\d+\.png$/.test(request.url ?? '')) {
      response.writeHead(404).end();
      return;
    }
    requests++;
    response.writeHead(200, {
      'content-type': 'image/png',
      'content-length': tile.length,
      'cache-control': 'public, max-age=3600',
      'access-control-allow-origin': '*',
    });
    response.end(tile);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    urlTemplate: `http://127.0.0.1:${port}/{z}/{x}/{y}.png`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
