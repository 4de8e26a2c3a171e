import { DEFAULT_MAP_TILES } from '@lakecams/gateway';
import { BaseConfigSchema, exitOnConfigError, loadConfig, metricsAddressFrom } from '@lakecams/service-kit';
import { firstAdminFromEnvironment } from '@lakecams/svc-identity';
import closeWithGrace from 'close-with-grace';
import { fileURLToPath } from 'node:url';
import { Type } from 'typebox';
import { buildStaleFrontends } from './frontend-build.ts';
import { startPortal } from './portal.ts';

const config = exitOnConfigError(() =>
  loadConfig(
    Type.Object({
      HOST: Type.String({ default: 'localhost' }),
      PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
      METRICS_PORT: BaseConfigSchema.properties.METRICS_PORT,
      METRICS_HOST: BaseConfigSchema.properties.METRICS_HOST,
      LOG_LEVEL: BaseConfigSchema.properties.LOG_LEVEL,
      DATA_DIR: Type.String({ default: './data' }),
      EMBEDDED_PG_PORT: Type.Integer({
        minimum: 1,
        maximum: 65535,
        default: 54329,
      }),
      DEMO_CAMERAS: Type.Boolean({ default: true }),
      // Cameras that push by FTP reach the portal here; 0 turns the FTP ingest off.
      FTP_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 2121 }),
      REMOTES: Type.Optional(Type.String()),
      ADMIN_USERNAME: Type.Optional(Type.String()),
      ADMIN_EMAIL: Type.Optional(Type.String()),
      ADMIN_PASSWORD: Type.Optional(Type.String()),
      SMTP_URL: Type.Optional(Type.String()),
      MAP_TILE_URL: Type.Optional(Type.String()),
      MAP_TILE_ATTRIBUTION: Type.Optional(Type.String()),
    }),
  ),
);
// All three or none; a partial set stops the start with a message naming what is missing.
const admin = exitOnConfigError(() => firstAdminFromEnvironment(config));
// Metrics only where ops asked for them, never on the portal's own port.
const metrics = exitOnConfigError(() => metricsAddressFrom(config));

const root = fileURLToPath(new URL('..', import.meta.url));
buildStaleFrontends(root);

const portal = await startPortal({
  host: config.HOST,
  port: config.PORT,
  ...(metrics ? { metrics } : {}),
  logLevel: config.LOG_LEVEL,
  dataDir: config.DATA_DIR,
  embeddedPostgresPort: config.EMBEDDED_PG_PORT,
  demoCameras: config.DEMO_CAMERAS,
  ...(config.FTP_PORT ? { ftp: { port: config.FTP_PORT } } : {}),
  ...(config.REMOTES ? { remotes: JSON.parse(config.REMOTES) } : {}),
  ...(admin ? { admin } : {}),
  ...(config.SMTP_URL ? { smtpUrl: config.SMTP_URL } : {}),
  ...(config.MAP_TILE_URL
    ? {
        mapTiles: {
          url: config.MAP_TILE_URL,
          attribution: config.MAP_TILE_ATTRIBUTION ?? DEFAULT_MAP_TILES.attribution,
        },
      }
    : {}),
});

closeWithGrace({ delay: 15_000 }, async ({ err, signal }) => {
  if (err) console.error(err);
  console.log(`\nStopping the portal (${signal ?? 'error'}) …`);
  await portal.close();
});

if (portal.demoAdmin) {
  console.log(
    `\nDemo administrator created: username ${portal.demoAdmin.username}, password ${portal.demoAdmin.password}` +
      '\n(shown only now; set ADMIN_USERNAME, ADMIN_EMAIL and ADMIN_PASSWORD on an empty data folder to choose your own)',
  );
}
if (!config.SMTP_URL) console.log(`Mails are written to ${portal.outboxDir}`);
if (portal.metricsUrl) console.log(`Prometheus metrics at ${portal.metricsUrl}/metrics`);
console.log(`\nLake webcam portal running at ${portal.url}  (Ctrl-C stops it)\n`);
