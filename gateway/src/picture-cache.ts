/**
 * Pictures by their immutable names, kept in the gateway's memory as a shared cache keeps them: keyed on the
 * URL alone (the name holds camera, minute, level, format and content; a signed link its expiry), and only
 * what the service marked `public` with a max-age, without Vary or cookies (docs/decisions.md, "Pictures in
 * the gateway's memory").
 */
export interface CachedPicture {
  statusCode: number;
  headers: Record<string, string>;
  body: Buffer;
  storedAt: number;
  expiresAt: number;
}

type Headers = Record<string, string | string[] | number | undefined>;

/** The longest a picture stays here, whatever its max-age: a deleted camera's pictures go within it. */
export const GATEWAY_PICTURE_MAX_AGE_S = 600;
/** Larger pictures (a camera's FULL level) pass through: they are few and would crowd the others out. */
export const GATEWAY_PICTURE_MAX_BYTES = 1024 * 1024;

/** The response headers a cached picture keeps; connection handling and lengths are the gateway's own. */
const KEPT_HEADERS = [
  'content-type',
  'cache-control',
  'etag',
  'content-disposition',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'x-image-quality',
  'x-image-name',
  'x-image-layers',
];

/** Seconds a response may be kept by a shared cache here, or null when it may not. */
export function sharedLifetime(statusCode: number, headers: Headers) {
  if (statusCode !== 200 || headers['set-cookie'] !== undefined || headers.vary !== undefined) return null;
  const cacheControl = String(headers['cache-control'] ?? '').toLowerCase();
  const directives = cacheControl.split(',').map((d) => d.trim());
  if (!directives.includes('public') || directives.some((d) => /^(private|no-store|no-cache)\b/.test(d))) return null;
  const maxAge = Number(/(?:^|,)\s*max-age=(\d+)/.exec(cacheControl)?.[1] ?? 0);
  return maxAge > 0 ? Math.min(maxAge, GATEWAY_PICTURE_MAX_AGE_S) : null;
}

export function keptHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string') kept[name] = value;
  }
  return kept;
}

/** Least recently used pictures leave first once the bytes exceed the budget. */
export class GatewayPictureCache {
  readonly #entries = new Map<string, CachedPicture>();
  #bytes = 0;
  readonly maxBytes: number;
  readonly #lookups: { hit(): void; miss(): void } | undefined;

  /** `lookups` is told of every `get`, hit or miss (`pictureCacheLookups` of the service kit counts them). */
  constructor(maxBytes: number, lookups?: { hit(): void; miss(): void }) {
    this.maxBytes = maxBytes;
    this.#lookups = lookups;
  }

  get bytes() {
    return this.#bytes;
  }

  get(url: string, now: number): CachedPicture | undefined {
    const entry = this.#lookup(url, now);
    if (entry) this.#lookups?.hit();
    else this.#lookups?.miss();
    return entry;
  }

  #lookup(url: string, now: number): CachedPicture | undefined {
    const entry = this.#entries.get(url);
    if (!entry) return undefined;
    this.#entries.delete(url);
    if (entry.expiresAt <= now) {
      this.#bytes -= entry.body.length;
      return undefined;
    }
    this.#entries.set(url, entry);
    return entry;
  }

  /** Keeps a fetched answer when a shared cache may; says whether it did. */
  offer(url: string, answer: Omit<CachedPicture, 'storedAt' | 'expiresAt'>, rawHeaders: Headers, now: number): boolean {
    const lifetime = sharedLifetime(answer.statusCode, rawHeaders);
    if (lifetime === null || answer.body.length > Math.min(GATEWAY_PICTURE_MAX_BYTES, this.maxBytes)) return false;
    const previous = this.#entries.get(url);
    if (previous) {
      this.#entries.delete(url);
      this.#bytes -= previous.body.length;
    }
    this.#entries.set(url, { ...answer, storedAt: now, expiresAt: now + lifetime * 1000 });
    this.#bytes += answer.body.length;
    for (const [key, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(key);
      this.#bytes -= entry.body.length;
    }
    return true;
  }
}
