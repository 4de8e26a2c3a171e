import { SERVICES, type ServiceName } from '@lakecams/contracts';
import { BaseConfigSchema, ConfigError } from '@lakecams/service-kit';
import { fileURLToPath } from 'node:url';
import { Type } from 'typebox';
import { defaultRemoteManifests } from './plugins/frontends.ts';
import type { ServiceTargets } from './service-targets.ts';

export const GatewayConfigSchema = Type.Object({
  ...BaseConfigSchema.properties,
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  /** JSON map remote name → URL of its mf-manifest.json; defaults to the remotes this gateway serves. */
  REMOTES: Type.Optional(Type.String()),
  /** Folder holding shell/dist and <remote>/dist; defaults to the repository root. */
  FRONTEND_ROOT: Type.String({
    default: fileURLToPath(new URL('../..', import.meta.url)),
  }),
  /** Satellite tile URL template for the map ({z}/{x}/{y}); a public imagery service by default. */
  MAP_TILE_URL: Type.Optional(Type.String()),
  /** Served over https (behind a TLS-terminating proxy): the anti-forgery cookies get `Secure` and `__Host-`. */
  COOKIE_SECURE: Type.Boolean({ default: false }),
  /** HMAC key of the anti-forgery tokens, the same on every gateway replica; random per process when unset. */
  ANTI_FORGERY_SECRET: Type.Optional(Type.String({ minLength: 16 })),
  /**
   * Proxies in front of the gateway whose `X-Forwarded-For` is believed: `false` (none, the default), a
   * hop count (`1` behind one ingress) or addresses/CIDRs, comma-separated. Rate limits key on the result.
   */
  TRUST_PROXY: Type.String({ default: 'false' }),
  MAP_TILE_ATTRIBUTION: Type.Optional(Type.String()),
  /** MiB of public pictures (by their immutable names) the gateway keeps in memory; 0 turns it off. */
  PICTURE_CACHE_MB: Type.Integer({ minimum: 0, maximum: 4096, default: 32 }),
  /** The site's public address (`https://seecam.example`), for absolute links in share previews; else the request's host. */
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** Where browsers fetch pictures (svc-imaging's setting of the same name): the pages' policy allows that origin. */
  PICTURE_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://[^/]+$' })),
  /** The shell's own server, when FRONTEND_ROOT holds no shell build: pages get their share previews from its index.html. */
  SHELL_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  /**
   * Origins besides the visitor's own machine a developer's browser may load a remote from (`?devRemote=`,
   * shell remote-overrides.ts), comma-separated (`https://review.seecam.example`); none by default.
   */
  DEV_REMOTE_ORIGINS: Type.Optional(Type.String()),
});

/** `/remotes.json` content: the `REMOTES` setting, or the remotes served by this gateway. */
export function remoteManifestsFrom(value: string | undefined): Record<string, string> {
  if (!value) return defaultRemoteManifests();
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new ConfigError('REMOTES must be a JSON object of remote name to manifest URL');
  }
  if (typeof parsed !== 'object' || parsed === null || Object.values(parsed).some((v) => typeof v !== 'string')) {
    throw new ConfigError('REMOTES must be a JSON object of remote name to manifest URL');
  }
  return { ...defaultRemoteManifests(), ...(parsed as Record<string, string>) };
}

/** `DEV_REMOTE_ORIGINS` as origins; an entry that is not an http(s) origin stops the start. */
export function devRemoteOriginsFrom(value: string | undefined): string[] {
  const origins = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const origin of origins) {
    const url = URL.canParse(origin) ? new URL(origin) : null;
    // Exact origins only: no paths, and no wildcards, which would never match and suggest they do.
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== origin || !/^[\w.[\]:-]+$/.test(url.hostname)) {
      throw new ConfigError(`DEV_REMOTE_ORIGINS: ${origin} is not an origin such as https://review.example`);
    }
  }
  return origins;
}

/** Distributed mode: `SERVICE_URL_<NAME>` per service, comma-separated for several replicas. */
export function remoteTargetsFrom(env: Record<string, string | undefined>): ServiceTargets {
  const entries = SERVICES.map((service): [ServiceName, { kind: 'remote'; urls: string[] }] => {
    const urls = (env[`SERVICE_URL_${service.toUpperCase()}`] ?? '')
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean);
    if (urls.length === 0) throw new ConfigError(`SERVICE_URL_${service.toUpperCase()} is required`);
    return [service, { kind: 'remote', urls }];
  });
  return Object.fromEntries(entries) as ServiceTargets;
}

/** `TRUST_PROXY` as Fastify's `trustProxy`. */
export function trustProxyFrom(value: string): TrustProxy {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed === 'false') return false;
  if (trimmed === 'true') return true;
  if (/^\d+$/.test(trimmed)) {
    const hops = Number(trimmed);
    return (_address: string, hop: number) => hop < hops;
  }
  return trimmed.split(',').map((part) => part.trim());
}

export type TrustProxy = boolean | string[] | ((address: string, hop: number) => boolean);
