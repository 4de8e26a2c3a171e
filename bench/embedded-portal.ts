import { startPortal } from '../scripts/portal.ts';

/**
 * Child process of the benchmarks: the embedded portal (`npm start`'s `startPortal`) alone in its process,
 * so its memory is measured without the harness. Options come as JSON in BENCH_PORTAL_OPTIONS; the
 * running portal is announced as one `BENCH_PORTAL {…}` line on stdout.
 */
const options = JSON.parse(process.env.BENCH_PORTAL_OPTIONS ?? '{}');
// Metrics on a loopback port of their own, as ops would set METRICS_PORT (the soak reads the heap there).
const portal = await startPortal({ port: 0, metrics: { host: '127.0.0.1', port: 0 }, logLevel: 'warn', ...options });

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await portal.close();
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

process.stdout.write(
  `BENCH_PORTAL ${JSON.stringify({ url: portal.url, metricsUrl: portal.metricsUrl, databaseUrls: portal.databaseUrls, demoAdmin: portal.demoAdmin })}\n`,
);
