import { imageNameOf, type Quality } from '@lakecams/contracts';
import { CONTENT_TYPES, FILE_EXTENSIONS, hasModernVariants, type PictureEncoding } from '../store/formats.ts';
import type { AccessBooking, CameraRow, LayerRow } from '../database.ts';
import type { OfflineReason } from './camera-health.ts';
import {
  composeLayers,
  isEmptySelection,
  type LayerSelection,
  selectionKey,
  selectLayers,
} from './layer-composition.ts';
import { PictureCache } from './picture-cache.ts';
import { pictureFormatFor } from './picture-format.ts';
import {
  checkSignature,
  contentPart,
  layersPart,
  pagePart,
  type PictureLink,
  picturePath,
  publicLifetime,
  qualityRank,
  SIGNED_LINK_WINDOW_S,
  signedLifetime,
  signedQuery,
} from './picture-links.ts';
import { type CameraAccess, resolveImageQuality } from './quality-resolution.ts';

/** `yyyy-MM-dd` of a moment in the region's time: the day bookings are compared with. */
export const isoDayOf = (at: Date) => {
  const name = imageNameOf(at);
  return `${name.slice(0, 4)}-${name.slice(4, 6)}-${name.slice(6, 8)}`;
};

/** What serving a camera's pictures needs, kept in memory while nothing changed (delivery/delivery-state.ts). */
export interface DeliveryState {
  camera: CameraRow;
  latest: { name: string; width: number | null; contentHash: string | null } | undefined;
  offline: OfflineReason;
  access: CameraAccess | undefined;
}

type Capture = NonNullable<DeliveryState['latest']>;

/** What picture delivery needs from the rest of the service (the composition hands it the parts themselves). */
export interface DeliverySources {
  /** Each camera's delivery state (delivery-state.ts). */
  deliveryStates: { of(cameraName: string): Promise<DeliveryState | undefined> };
  /** The stored captures (repositories/capture-query-repository.ts). */
  captures: { named(webcamId: number, name: string): Promise<Capture | undefined> };
  /** Referer pages' layers (repositories/layer-repository.ts). */
  layers: { of(webcamId: number, url: string): Promise<LayerRow[]> };
  /** The image store (store/image-store.ts). */
  store: {
    read(cameraName: string, imageName: string, quality: Quality, encoding: PictureEncoding): Promise<Buffer | null>;
  };
  /**
   * Signs links above the public level; the same on every replica. `baseUrl`: a cookie-less host, or ''.
   * `windowSeconds`: a link lives one to two of these (10 minutes by default; tests shorten it).
   */
  links: { secret: string; baseUrl: string; windowSeconds?: number | undefined };
  recentPicturesBytes: number;
  composedCacheBytes?: number | undefined;
  cacheLookups?: { recent?: CacheLookups; composed?: CacheLookups };
  clock?: () => Date;
}

/** Told of every cache look-up, hit or miss (the metrics' hit ratio). */
export interface CacheLookups {
  hit(): void;
  miss(): void;
}

/** Who asks: the acting user with their roles, the page the picture is for, the formats taken. */
export interface Caller {
  userId: string | null;
  roles: string[];
  referer: string | null;
  accept: string | undefined;
}

/** The answer in HTTP terms; the route only writes it out. */
export type DeliveryAnswer =
  | { kind: 'refused'; status: 403 | 404; message: string; headers?: Record<string, string> }
  | { kind: 'redirect'; location: string; headers: Record<string, string> }
  /** The caller has these bytes already (its If-None-Match names them): nothing is read. */
  | { kind: 'not-modified'; etag: string; headers: Record<string, string> }
  | {
      kind: 'picture';
      bytes: Buffer;
      contentType: string;
      /** The name is the content: it is its own validator. */
      etag: string;
      headers: Record<string, string>;
    };

const refused = (status: 403 | 404, message: string, headers?: Record<string, string>): DeliveryAnswer => ({
  kind: 'refused',
  status,
  message,
  ...(headers ? { headers } : {}),
});

/** Earlier captures looked up while a delivery state lives: a picture asked for again costs one query. */
const NAMED_CAPTURES_PER_STATE = 256;

/**
 * Picture delivery: which picture and level a caller gets (a private redirect to the picture's immutable
 * name, signed above the public level or with a page's layers), and the bytes of such a name, shared by
 * every cache (docs/decisions.md, "Pictures behind a CDN").
 */
/** How wide the camera took the picture: a page tells "the camera delivers no more" from a lower level. */
const fullWidthHeader = (width: number | null | undefined): Record<string, string> =>
  width ? { 'x-image-full-width': String(width) } : {};

export function createPictureDelivery(sources: DeliverySources) {
  const clock = sources.clock ?? (() => new Date());
  const { links } = sources;
  const window = links.windowSeconds ?? SIGNED_LINK_WINDOW_S;
  const sign = (path: string, now: number) => signedQuery(links.secret, path, now, window);
  const composedCache = new PictureCache(sources.composedCacheBytes, sources.cacheLookups?.composed);
  const composing = new Map<string, Promise<Buffer | null>>();
  // Pictures asked for recently stay in memory, keyed by their content (an upload can replace a minute's).
  const recent = new PictureCache(sources.recentPicturesBytes, sources.cacheLookups?.recent);
  const namedCaptures = new WeakMap<DeliveryState, Map<string, Promise<Capture | undefined>>>();

  /** The capture a picture request names, or the camera's current one. */
  function captureOf(state: DeliveryState, imageName: string | null): Promise<Capture | undefined> {
    // Most requests name the current picture, which the delivery state already holds.
    if (!imageName || state.latest?.name === imageName) return Promise.resolve(state.latest);
    const known = namedCaptures.get(state) ?? new Map<string, Promise<Capture | undefined>>();
    namedCaptures.set(state, known);
    const cached = known.get(imageName);
    if (cached) return cached;
    const lookup = sources.captures.named(state.camera.webcamId, imageName);
    if (known.size < NAMED_CAPTURES_PER_STATE) {
      known.set(imageName, lookup);
      lookup.catch(() => known.delete(imageName));
    }
    return lookup;
  }

  async function recentPicture(state: DeliveryState, capture: Capture, quality: Quality, encoding: PictureEncoding) {
    const key = PictureCache.key(
      state.camera.webcamId,
      capture.name,
      quality,
      `${capture.contentHash ?? 'unknown'}|${encoding}`,
    );
    const known = recent.get(key);
    if (known) return known;
    const bytes = await sources.store.read(state.camera.name, capture.name, quality, encoding);
    if (bytes) recent.set(key, bytes);
    return bytes;
  }

  /** From the cache, or composed once however many requests ask at the same time. */
  async function composed(key: string, compose: () => Promise<Buffer | null>): Promise<Buffer | null> {
    const cached = composedCache.get(key);
    if (cached) return cached;
    let pending = composing.get(key);
    if (!pending) {
      pending = compose().finally(() => composing.delete(key));
      composing.set(key, pending);
      const result = await pending;
      if (result) composedCache.set(key, result);
      return result;
    }
    return pending;
  }

  const resolve = (access: CameraAccess | undefined, caller: Omit<Caller, 'accept'>) =>
    resolveImageQuality(access, { ...caller, today: isoDayOf(clock()) });

  /** What anybody gets: no user, no page. Pictures up to this level need no signed link. */
  const publicQuality = (state: DeliveryState) =>
    resolve(state.access, { userId: null, roles: [], referer: null }).quality;

  /** A booked page's layers on a capture; the offline layer only on the current picture of a camera gone silent. */
  async function layersFor(state: DeliveryState, booking: AccessBooking, captureName: string) {
    const offline = state.latest?.name === captureName && state.offline !== null;
    const selection = selectLayers(
      await sources.layers.of(state.camera.webcamId, booking.url),
      captureName,
      state.camera.intervalMin,
      offline,
    );
    return isEmptySelection(selection) ? null : { selection, key: selectionKey(selection) };
  }

  return {
    /** Forget the pictures kept of a camera (it changed) or composed with its layers (they changed). */
    forgetCamera(webcamId: number) {
      recent.forgetCamera(webcamId);
    },
    forgetLayers(webcamId: number) {
      composedCache.forgetCamera(webcamId);
    },
    /** Whether a composed picture is kept (shown to tests and operators as `x-layer-cache`). */
    hasComposed: (key: string) => composedCache.has(key),

    /**
     * The entitlement: decide the caller's level (user, Premium, booked page) and send them to the picture's
     * immutable name, which caches may share; the redirect itself is private. `imageName` null: the current one.
     */
    async entitlement(caller: Caller, cameraName: string, imageName: string | null): Promise<DeliveryAnswer> {
      const state = await sources.deliveryStates.of(cameraName);
      if (!state) return refused(404, `Unknown camera ${cameraName}`);
      const capture = await captureOf(state, imageName);
      if (!capture)
        return refused(404, imageName ? `No image ${imageName} of ${cameraName}` : `No image of ${cameraName} yet`);
      const { quality, reason, booking } = resolve(state.access, caller);
      const layers = booking ? await layersFor(state, booking, capture.name) : null;
      const path = picturePath({
        camera: state.camera.name,
        imageName: capture.name,
        quality,
        content: contentPart(capture.contentHash),
        // AVIF or WebP when the client takes them; layers are drawn on the JPEG, then encoded as negotiated.
        encoding: pictureFormatFor(caller.accept, quality),
        ...(layers && booking ? { layers: { page: pagePart(booking.url), key: layersPart(layers.key) } } : {}),
      });
      const signed = layers || qualityRank(quality) > qualityRank(publicQuality(state));
      const now = clock().getTime();
      const link = signed ? sign(path, now) : null;
      // The current picture changes at the next capture; a named one's link lasts as long as its signature.
      const lifetime = !imageName ? 30 : link ? Math.max(0, signedLifetime(link.expires, now) - window) : 3600;
      const headers: Record<string, string> = {
        'cache-control': `private, max-age=${lifetime}`,
        vary: 'Authorization, Cookie, Referer, Accept',
        'x-image-quality': `${quality}; ${reason}`,
        'x-image-name': capture.name,
        ...fullWidthHeader(capture.width),
      };
      if (!imageName && state.offline) headers['x-camera-offline'] = state.offline;
      if (layers) headers['x-image-layers'] = layers.key;
      return { kind: 'redirect', location: `${links.baseUrl}${path}${link ? `?${link.query}` : ''}`, headers };
    },

    /** A picture's bytes by their immutable name: the same for everybody who may have it, so caches share it. */
    async picture(
      wanted: PictureLink,
      signature: { e?: string | undefined; s?: string | undefined },
      hasAlready: (etag: string) => boolean = () => false,
    ): Promise<DeliveryAnswer> {
      const state = await sources.deliveryStates.of(wanted.camera);
      const capture = state && (await captureOf(state, wanted.imageName));
      if (!state || !capture || contentPart(capture.contentHash) !== wanted.content)
        return refused(404, `No picture ${wanted.imageName} of ${wanted.camera} with this content`);
      if (wanted.encoding !== 'jpeg' && !hasModernVariants(wanted.quality))
        return refused(404, `${wanted.quality} pictures exist only as JPEG`);
      const path = picturePath(wanted);
      const now = clock().getTime();
      let expires: number | null = null;
      if (!wanted.layers && qualityRank(wanted.quality) <= qualityRank(publicQuality(state))) {
        // A public name has one address, the bare one: a signature would make it another URL for the same bytes.
        if (signature.e !== undefined || signature.s !== undefined)
          return refused(404, `This picture is public, its address is ${path}`);
      } else {
        const check = checkSignature(links.secret, path, signature, now);
        if (!check.valid) {
          const why = check.reason === 'expired' ? 'has expired' : 'is not signed for this level';
          return refused(403, `This picture link ${why}; ask /api/Image/Get/camera/${wanted.camera}.jpg again`);
        }
        expires = check.expires;
      }
      const headers: Record<string, string> = {};
      let selection: LayerSelection | null = null;
      if (wanted.layers) {
        const { page, key } = wanted.layers;
        const booking = state.access?.bookings.find((b) => pagePart(b.url) === page);
        const layers = booking ? await layersFor(state, booking, capture.name) : null;
        if (!booking || !layers || layersPart(layers.key) !== key)
          return refused(404, "These layers are no longer the page's; ask for the picture again");
        selection = layers.selection;
        headers['x-image-layers'] = layers.key;
      }
      // A shared cache keeps it no longer than its link lives, or than its level may stay public.
      const lifetime = expires === null ? publicLifetime(wanted.quality) : signedLifetime(expires, now);
      headers['cache-control'] = `public, max-age=${lifetime}, immutable`;
      headers['access-control-allow-origin'] = '*';
      headers['access-control-expose-headers'] = 'x-image-quality, x-image-name, x-image-full-width';
      headers['x-image-quality'] = wanted.quality;
      headers['x-image-name'] = capture.name;
      Object.assign(headers, fullWidthHeader(capture.width));
      const etag = `"${path.slice(path.lastIndexOf('/') + 1)}"`;
      if (hasAlready(etag)) return { kind: 'not-modified', etag, headers };
      let bytes: Buffer | null;
      if (selection) {
        const layered = selection;
        const cacheKey = PictureCache.key(
          state.camera.webcamId,
          capture.name,
          wanted.quality,
          `${selectionKey(layered)}|${capture.contentHash}|${wanted.encoding}`,
        );
        headers['x-layer-cache'] = composedCache.has(cacheKey) ? 'hit' : 'miss';
        bytes = await composed(cacheKey, async () => {
          const picture = await recentPicture(state, capture, wanted.quality, 'jpeg');
          return picture && composeLayers(picture, capture.width ?? 0, layered, wanted.encoding);
        });
      } else {
        bytes = await recentPicture(state, capture, wanted.quality, wanted.encoding);
        // A picture stored before its level had AVIF and WebP copies: its JPEG, under the JPEG's own name.
        if (!bytes && wanted.encoding !== 'jpeg') {
          const jpeg = picturePath({ ...wanted, encoding: 'jpeg' });
          // The signature covers the path, so the JPEG's name needs its own.
          const query = expires === null ? '' : `?${sign(jpeg, now).query}`;
          return { kind: 'redirect', location: `${links.baseUrl}${jpeg}${query}`, headers: {} };
        }
      }
      if (!bytes) return refused(404, `Image ${capture.name} of ${wanted.camera} is no longer stored`);
      // Saved from the browser, an AVIF or WebP picture gets its own extension.
      headers['content-disposition'] =
        `inline; filename="${wanted.camera}-${capture.name}.${FILE_EXTENSIONS[wanted.encoding]}"`;
      return { kind: 'picture', bytes, contentType: CONTENT_TYPES[wanted.encoding], etag, headers };
    },
  };
}

export type PictureDelivery = ReturnType<typeof createPictureDelivery>;
