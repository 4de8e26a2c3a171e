export { booleanTextResponse, BooleanText, mediaResponse, replyTrue } from './boolean-text.ts';
export { ifNoneMatchHits, replyNotModified } from './conditional-request.ts';
export {
  BaseConfigSchema,
  type BaseConfig,
  ConfigError,
  exitOnConfigError,
  loadConfig,
} from './config.ts';
export {
  databaseUrlFor,
  dropDatabase,
  ensureDatabase,
  withDatabase,
} from './database-url.ts';
export { createKysely, migrateToLatest } from './database.ts';
export {
  addOutboxRequestId,
  createOutboxTable,
  dropOutboxRequestId,
  dropOutboxTable,
  inTransaction,
  publishEvent,
} from './outbox.ts';
export { ADMIN_ROLE, authPlugin, type Principal } from './plugins/auth.ts';
export { ErrorSchema, errorBody, errorsPlugin, httpError, unavailable } from './plugins/errors.ts';
export { healthPlugin, type ReadinessCheck } from './plugins/health.ts';
export {
  METRICS_PATH,
  type MetricsAddress,
  metricsAddressFrom,
  metricsPlugin,
  type MetricsServer,
  mergeExpositions,
  serveMetrics,
} from './plugins/metrics.ts';
export { type CacheLookups, pictureCacheLookups } from './picture-cache-metrics.ts';
// Services register their own metrics on `app.metrics` with the kit's prom-client.
export { Counter, Gauge, Histogram, Registry } from 'prom-client';
export { swaggerPlugin } from './plugins/swagger.ts';
export {
  buildServiceApp,
  type ServiceApp,
  type ServiceDefinition,
  type ServiceRuntime,
} from './service-app.ts';
export { NATIVE_MEMORY_ENV } from './native-memory.ts';
export { createLogger, type LogFormat, listenWithGrace, logFormatFrom, prettyStream } from './server.ts';
export { runService } from './run-service.ts';
export { freePort } from './free-port.ts';
export {
  generateSigningKeys,
  loadOrCreateSecret,
  loadOrCreateSigningKeys,
  publicKeyOf,
  type SigningKeys,
} from './signing-keys.ts';
export {
  DATABASE_INTEGER_MAX,
  Day,
  DayOrInstant,
  FormFields,
  Id,
  IdOrNew,
  isDatabaseId,
  isValidDay,
  isValidMinute,
  Minute,
  validateWith,
} from './validation.ts';
export { followKnownUsers, type KnownUser, type KnownUserStore } from './known-users.ts';
export { REQUEST_ID_HEADER, requestIdOf } from './request-id.ts';
