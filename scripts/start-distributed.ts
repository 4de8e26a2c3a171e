import { SERVICES, type ServiceName } from '@lakecams/contracts';
import {
  BaseConfigSchema,
  exitOnConfigError,
  loadConfig,
  loadOrCreateSecret,
  loadOrCreateSigningKeys,
  NATIVE_MEMORY_ENV,
} from '@lakecams/service-kit';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Type } from 'typebox';
import { buildStaleFrontends } from './frontend-build.ts';

/** Distributed mode on one machine: every service and the gateway in its own process, on PostgreSQL and NATS. */
const config = exitOnConfigError(() =>
  loadConfig(
    Type.Object({
      HOST: Type.String({ default: 'localhost' }),
      PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 8080 }),
      SERVICE_BASE_PORT: Type.Integer({ minimum: 1, maximum: 65000, default: 8180 }),
      LOG_LEVEL: BaseConfigSchema.properties.LOG_LEVEL,
      DATABASE_URL: Type.String({ default: 'postgres://postgres@127.0.0.1:5432/postgres' }),
      NATS_URL: Type.String({ default: 'nats://127.0.0.1:4222' }),
      IMAGING_REPLICAS: Type.Integer({ minimum: 1, maximum: 16, default: 2 }),
      DEMO_CAMERAS: Type.Boolean({ default: true }),
      REMOTES: Type.Optional(Type.String()),
      DATA_DIR: Type.String({ default: './data' }),
    }),
  ),
);

const root = fileURLToPath(new URL('..', import.meta.url));
buildStaleFrontends(root);

const signingKeys = await loadOrCreateSigningKeys(join(config.DATA_DIR, 'jwt-signing-key.pem'));
const captchaSecret = randomBytes(32).toString('hex');
const antiForgerySecret = await loadOrCreateSecret(join(config.DATA_DIR, 'anti-forgery.secret'));
const pictureLinkSecret = await loadOrCreateSecret(join(config.DATA_DIR, 'picture-link.secret'));
const cameraSecretKey = await loadOrCreateSecret(join(config.DATA_DIR, 'camera.secret'));
const children: ChildProcess[] = [];
const labels = new Map<ChildProcess, string>();
let stopping = false;

function launch(label: string, script: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: {
      ...process.env,
      ...NATIVE_MEMORY_ENV,
      LOG_LEVEL: config.LOG_LEVEL,
      NATS_URL: config.NATS_URL,
      JWT_PUBLIC_KEY: signingKeys.publicKey,
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
    // Its own process group: Ctrl-C reaches only this launcher, which stops each process once, in order.
    detached: true,
  });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${label} exited (${signal ?? code}); stopping the portal`);
      void stop(1);
    }
  });
  children.push(child);
  labels.set(child, label);
  return child;
}

async function waitUntilReady(url: string, label: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await fetch(`${url}/ready`).catch(() => null);
    if (response?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${label} did not become ready at ${url}`);
}

/** SIGTERM each process once and wait for it; returns those that did not end with exit code 0. */
async function terminate(processes: ChildProcess[]): Promise<string[]> {
  const unclean: string[] = [];
  await Promise.all(
    processes.map(
      (child) =>
        new Promise<void>((resolve) => {
          const settle = () => {
            if (child.exitCode !== 0) unclean.push(`${labels.get(child)} (${child.signalCode ?? child.exitCode})`);
            resolve();
          };
          if (child.exitCode !== null || child.signalCode !== null) return settle();
          child.once('exit', settle);
          child.kill('SIGTERM');
        }),
    ),
  );
  return unclean;
}

async function stop(exitCode: number): Promise<never> {
  stopping = true;
  // The gateway first, so no request reaches a service that is closing.
  const isGateway = (child: ChildProcess) => labels.get(child) === 'gateway';
  const unclean = [
    ...(await terminate(children.filter(isGateway))),
    ...(await terminate(children.filter((child) => !isGateway(child)))),
  ];
  if (unclean.length > 0) console.error(`Stopped; not cleanly: ${unclean.join(', ')}`);
  else console.log(`Stopped all ${children.length} processes cleanly.`);
  process.exit(unclean.length > 0 ? exitCode || 1 : exitCode);
}
process.once('SIGINT', () => void stop(0));
// Should the launcher itself fail, its processes go with it.
process.once('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
});
process.once('SIGTERM', () => void stop(0));

/** The first port from `from` on that nothing listens on (another program may hold one of the range). */
async function nextFreePort(from: number): Promise<number> {
  for (let candidate = from; candidate < from + 200; candidate++) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(candidate, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return candidate;
  }
  throw new Error(`No free port from ${from} on`);
}

const urls: Record<ServiceName, string[]> = { identity: [], webcam: [], referer: [], imaging: [] };
/** Each process's metrics, on a loopback port of its own (METRICS_HOST's default), as Prometheus would read them. */
const metricsUrls: string[] = [];
let port = config.SERVICE_BASE_PORT;
for (const service of SERVICES) {
  const replicas = service === 'imaging' ? config.IMAGING_REPLICAS : 1;
  for (let replica = 1; replica <= replicas; replica++) {
    port = await nextFreePort(port);
    const metricsPort = await nextFreePort(port + 1);
    const url = `http://127.0.0.1:${port}`;
    launch(`svc-${service}#${replica}`, `svc-${service}/src/server.ts`, {
      HOST: '127.0.0.1',
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      DATABASE_URL: config.DATABASE_URL,
      DEMO_CAMERAS: String(config.DEMO_CAMERAS),
      DATA_DIR: config.DATA_DIR,
      DEMO_SOURCE: String(config.DEMO_CAMERAS),
      REPLICA_ID: `svc-${service}#${replica}`,
      // Pictures in the JetStream object store, as replicas on several hosts need them.
      IMAGE_STORE: process.env.IMAGE_STORE ?? 'nats',
      // Every imaging replica signs and checks the same picture links.
      PICTURE_LINK_SECRET: process.env.PICTURE_LINK_SECRET ?? pictureLinkSecret,
      // Every imaging replica opens the same sealed camera passwords.
      CAMERA_SECRET_KEY: process.env.CAMERA_SECRET_KEY ?? cameraSecretKey,
      ...(service === 'identity'
        ? {
            JWT_PRIVATE_KEY: signingKeys.privateKey,
            DEMO_ADMIN: 'true',
            CAPTCHA_HMAC_SECRET: process.env.CAPTCHA_HMAC_SECRET ?? captchaSecret,
            PUBLIC_URL: `http://${config.HOST}:${config.PORT}`,
          }
        : {}),
    });
    urls[service].push(url);
    metricsUrls.push(`svc-${service}#${replica} http://127.0.0.1:${metricsPort}/metrics`);
    port = metricsPort + 1;
  }
}
try {
  await Promise.all(SERVICES.flatMap((service) => urls[service].map((url) => waitUntilReady(url, `svc-${service}`))));
  const gatewayMetricsPort = await nextFreePort(port);
  metricsUrls.push(`gateway http://127.0.0.1:${gatewayMetricsPort}/metrics`);
  launch('gateway', 'gateway/src/server.ts', {
    HOST: config.HOST,
    PORT: String(config.PORT),
    METRICS_PORT: String(gatewayMetricsPort),
    ANTI_FORGERY_SECRET: process.env.ANTI_FORGERY_SECRET ?? antiForgerySecret,
    ...(config.REMOTES ? { REMOTES: config.REMOTES } : {}),
    ...Object.fromEntries(SERVICES.map((service) => [`SERVICE_URL_${service.toUpperCase()}`, urls[service].join(',')])),
  });
  const gatewayUrl = `http://${config.HOST}:${config.PORT}`;
  await waitUntilReady(gatewayUrl, 'gateway');
  console.log(
    `\nLake webcam portal (distributed: ${children.length} processes) running at ${gatewayUrl}  (Ctrl-C stops it)`,
  );
  console.log(`Prometheus metrics:\n  ${metricsUrls.join('\n  ')}\n`);
} catch (error) {
  console.error((error as Error).message);
  await stop(1);
}
