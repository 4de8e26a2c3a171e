import { type Static, type TObject, Type } from 'typebox';
import { Value } from 'typebox/value';

/** Settings every service and the gateway read from the environment. */
export const BaseConfigSchema = Type.Object({
  HOST: Type.String({ default: '127.0.0.1' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 0 }),
  /** Port of `/metrics` (Prometheus), apart from PORT so visitors never reach it; none when unset. */
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  /** Address the metrics port is bound to; the images bind every interface for Prometheus to reach the pod. */
  METRICS_HOST: Type.String({ default: '127.0.0.1' }),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
  /** `json` or `pretty` (readable lines); unset: pretty on a terminal, JSON otherwise. */
  LOG_FORMAT: Type.Optional(Type.Enum(['json', 'pretty'])),
  /** PostgreSQL server URL; each service uses its own database on it (see databaseUrlFor). */
  DATABASE_URL: Type.Optional(Type.String()),
  /** NATS server(s); without it the in-process bus is used. */
  NATS_URL: Type.Optional(Type.String()),
  /** Keeps this portal's messages apart from others on the same NATS server. */
  BUS_NAMESPACE: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]+$' })),
  /** Copies of the events stream: 3 on a NATS cluster of three, 1 on a single server. */
  NATS_STREAM_REPLICAS: Type.Integer({ minimum: 1, maximum: 5, default: 1 }),
  /** PEM public key of svc-identity, to verify access tokens. */
  JWT_PUBLIC_KEY: Type.Optional(Type.String()),
  /** Where a service keeps files of its own (mails without SMTP, pictures in the files store). */
  DATA_DIR: Type.String({ default: './data' }),
});
export type BaseConfig = Static<typeof BaseConfigSchema>;

export class ConfigError extends Error {}

/** In a command's entry: a configuration mistake ends it with its message rather than a stack trace. */
export function exitOnConfigError<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

/**
 * Parse `env` against a TypeBox object schema: defaults applied, strings converted, unknown keys dropped.
 * (`NoInfer`: the schema decides the type, never the place the result goes, which would cost the type checker
 * over a million instantiations through TypeBox's `Static`.)
 */
export function loadConfig<T extends TObject>(
  schema: T,
  env: Record<string, string | undefined> = process.env,
): NoInfer<Static<T>> {
  const known: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') known[key] = value;
  }
  const value = Value.Convert(schema, Value.Default(schema, known));
  if (!Value.Check(schema, value)) {
    const problems = [...Value.Errors(schema, value)].map(
      (e) => `${e.instancePath.slice(1) || '(config)'} ${e.message}`,
    );
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return value as Static<T>;
}
