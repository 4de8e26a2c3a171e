import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';

/**
 * Baseline for the memory benchmark: the least a Node process can be that serves the image, reading the
 * file on every request like the portal does. Prints `BASELINE_URL <url>` when listening.
 */
const file = process.env.BASELINE_IMAGE_FILE as string;
const server = createServer(async (_request, response) => {
  const bytes = await readFile(file);
  response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': bytes.length });
  response.end(bytes);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`BASELINE_URL http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
