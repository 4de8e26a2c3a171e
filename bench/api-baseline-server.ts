import { createServer } from 'node:http';
import pg from 'pg';

/**
 * Baseline for the API benchmark: the camera list answered by plain `node:http` and `pg` with the same two
 * queries as svc-webcam and `JSON.stringify`: no framework, no query builder, no schema serializer.
 * Prints `BASELINE_URL <url>` when listening.
 */
const pool = new pg.Pool({ connectionString: process.env.BASELINE_DATABASE_URL, max: 10 });

async function cameraList(): Promise<string> {
  const webcams = await pool.query(
    'select id, name, pattern, distance, angle, interval_min as "intervalMin", webcam_type as "webcamType" from webcams order by name',
  );
  const ids = webcams.rows.map((w) => w.id as number);
  const latest = await pool.query(
    `select distinct on (webcam_id) webcam_id as "webcamId", name, lat, lng, direction from webcam_images
     where webcam_id = any($1) order by webcam_id, name desc`,
    [ids],
  );
  const byWebcam = new Map(latest.rows.map((image) => [image.webcamId as number, image]));
  return JSON.stringify(
    webcams.rows.flatMap((webcam) => {
      const image = byWebcam.get(webcam.id);
      return image ? [{ webcam, images: [image] }] : [];
    }),
  );
}

const server = createServer(async (_request, response) => {
  try {
    const body = await cameraList();
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  } catch (error) {
    response.writeHead(500).end(String(error));
  }
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`BASELINE_URL http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
