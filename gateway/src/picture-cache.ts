import { PICTURE_PATH_PREFIX } from '@lakecams/contracts';

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
/**
 * After a camera's access changed, its pictures are not kept for this long: an imaging replica may still
 * answer from the access state it holds (at most 5 s old, delivery/delivery-state.ts in svc-imaging).
 */
export const ACCESS_SETTLE_MS = 10_000;

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
  'x-image-full-width',
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

/**
 * The headers of a picture answered from memory: its max-age less the whole seconds it was held, so that no
 * cache after this one (an edge that ignores `Age`, a browser) keeps it longer than the service allowed, and
 * no `Age`, which would count the same time twice.
 */
export function headersFromMemory(entry: CachedPicture, now: number): Record<string, string> {
  const held = Math.ceil(Math.max(0, now - entry.storedAt) / 1000);
  const cacheControl = entry.headers['cache-control'];
  if (cacheControl === undefined) return entry.headers;
  const lowered = cacheControl.replace(
    /(^|,)(\s*)max-age=(\d+)/i,
    (_, comma: string, space: string, seconds: string) =>
      `${comma}${space}max-age=${Math.max(0, Number(seconds) - held)}`,
  );
  return { ...entry.headers, 'cache-control': lowered };
}

/** `/pictures/<camera>/…` → the camera's name as written in the URL. */
export const pictureCameraOf = (url: string) => url.slice(PICTURE_PATH_PREFIX.length).split('/', 1)[0] ?? '';

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
  /** When each camera's pictures were last forgotten: answers asked for before then are not kept. */
  readonly #forgotten = new Map<string, number>();
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

  /**
   * Forget a camera's pictures at once (its access changed: a level may no longer be public), and keep none
   * that was asked for before now or within `ACCESS_SETTLE_MS`.
   */
  forgetCamera(camera: string, now: number) {
    for (const [url, entry] of this.#entries) {
      if (pictureCameraOf(url) !== camera) continue;
      this.#entries.delete(url);
      this.#bytes -= entry.body.length;
    }
    for (const [name, at] of this.#forgotten) if (at + ACCESS_SETTLE_MS < now) this.#forgotten.delete(name);
    this.#forgotten.set(camera, now);
  }

  /**
   * Keeps a fetched answer when a shared cache may; says whether it did. `askedAt`: when the request went to the
   * service; the answer's age counts from then, and one under way while its camera was forgotten is not kept.
   */
  offer(
    url: string,
    answer: Omit<CachedPicture, 'storedAt' | 'expiresAt'>,
    rawHeaders: Headers,
    now: number,
    askedAt = now,
  ): boolean {
    const lifetime = sharedLifetime(answer.statusCode, rawHeaders);
    if (lifetime === null || answer.body.length > Math.min(GATEWAY_PICTURE_MAX_BYTES, this.maxBytes)) return false;
    const forgotten = this.#forgotten.get(pictureCameraOf(url));
    if (forgotten !== undefined && askedAt <= forgotten + ACCESS_SETTLE_MS) return false;
    const previous = this.#entries.get(url);
    if (previous) {
      this.#entries.delete(url);
      this.#bytes -= previous.body.length;
    }
    // Its age counts from when it was asked for: the service's max-age was counted from about then.
    this.#entries.set(url, { ...answer, storedAt: askedAt, expiresAt: askedAt + lifetime * 1000 });
    this.#bytes += answer.body.length;
    for (const [key, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(key);
      this.#bytes -= entry.body.length;
    }
    return true;
  }
}
