import { isValidCameraName, PICTURE_PATH_PREFIX, QUALITIES, type Quality } from '@lakecams/contracts';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { FILE_EXTENSIONS, type PictureEncoding } from '../store/formats.ts';

/** Signed links stay the same for this long, so every visitor of a partner page in it shares one cached copy. */
export const SIGNED_LINK_WINDOW_S = 600;

/** How long a shared cache may keep a picture nobody is ever refused (POOR): a year, as any immutable file. */
export const LOWEST_LEVEL_LIFETIME_S = 31_536_000;
/**
 * How long a shared cache may keep an unsigned picture above POOR: such a level is public only while the camera's
 * configuration for all users says so, and a CDN cannot be told to forget (docs/decisions.md, "Pictures behind a CDN").
 */
export const PUBLIC_LEVEL_LIFETIME_S = 86_400;

/** Seconds a shared cache may keep an unsigned picture (or tile) of this level. */
export const publicLifetime = (quality: Quality) =>
  quality === QUALITIES[0] ? LOWEST_LEVEL_LIFETIME_S : PUBLIC_LEVEL_LIFETIME_S;

/** Seconds a signed link has left, rounded down: no cache may keep its picture past the expiry. */
export const signedLifetime = (expires: number, now: number) => Math.max(0, expires - Math.ceil(now / 1000));

/**
 * One picture's bytes, named by everything that decides them: camera, capture, level, content, format and,
 * for a booked page, the booking and its drawn layers. The same name always means the same bytes.
 */
export interface PictureLink {
  camera: string;
  imageName: string;
  quality: Quality;
  /** The capture's content hash, first 12 hex digits (an upload may replace a minute's picture). */
  content: string;
  encoding: PictureEncoding;
  /** A booked page's picture with its layers drawn in: the page (`pagePart` of its booking's url) and the layers. */
  layers?: { page: string; key: string };
}

const FILE =
  /^(\d{12})-(POOR|LOW|MEDIUM|HIGH|FULL)-([0-9a-f]{12})(?:-p([0-9a-f]{12})-([0-9a-f]{12}))?\.(jpg|avif|webp)$/;
const ENCODING_OF: Readonly<Record<string, PictureEncoding>> = { jpg: 'jpeg', avif: 'avif', webp: 'webp' };

export const contentPart = (contentHash: string | null) => (contentHash ?? '').padEnd(12, '0').slice(0, 12);
const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);
export const layersPart = (selectionKey: string) => digest(selectionKey);
export const pagePart = (bookingUrl: string) => digest(bookingUrl);

/** `/pictures/<camera>/<yyyyMMddHHmm>-<LEVEL>-<content>[-p<page>-<layers>].<jpg|avif|webp>` */
export function picturePath(link: PictureLink): string {
  const layers = link.layers ? `-p${link.layers.page}-${link.layers.key}` : '';
  const file = `${link.imageName}-${link.quality}-${link.content}${layers}.${FILE_EXTENSIONS[link.encoding]}`;
  return `${PICTURE_PATH_PREFIX}${encodeURIComponent(link.camera)}/${file}`;
}

/** The link a picture path names, or null when it is not one. */
export function parsePicturePath(camera: string, file: string): PictureLink | null {
  const match = FILE.exec(file);
  if (!match || !isValidCameraName(camera)) return null;
  const [, imageName, quality, content, page, layerKey, extension] = match as unknown as string[];
  return {
    camera,
    imageName: imageName as string,
    quality: quality as Quality,
    content: content as string,
    encoding: ENCODING_OF[extension as string] ?? 'jpeg',
    ...(page ? { layers: { page, key: layerKey as string } } : {}),
  };
}

const EXPIRY = /^[1-9]\d{0,11}$/;

/**
 * The one address of a picture: its path, and the signed link's query exactly as `signedQuery` writes it when
 * one was sent. Any other spelling of the same name (escapes, numbers written otherwise, more parameters) is
 * a URL of its own to a cache, so the route answers only this one (docs/decisions.md, "One address per picture").
 */
export function pictureAddress(link: PictureLink, query: { e?: string | undefined; s?: string | undefined }): string {
  const path = picturePath(link);
  if (query.e === undefined && query.s === undefined) return path;
  return `${path}?e=${Number(query.e)}&s=${query.s}`;
}

const signature = (secret: string, path: string, expires: number) =>
  createHmac('sha256', secret).update(`${path}?e=${expires}`).digest('base64url').slice(0, 32);

/**
 * A link to a level above the public one: it carries its expiry and an HMAC over path and expiry. The expiry
 * is rounded up to the window, so the link does not change within it and an edge cache serves it to all.
 */
export function signedQuery(
  secret: string,
  path: string,
  now = Date.now(),
  window = SIGNED_LINK_WINDOW_S,
): { query: string; expires: number } {
  const expires = (Math.floor(now / 1000 / window) + 2) * window;
  return { query: `e=${expires}&s=${signature(secret, path, expires)}`, expires };
}

export type SignatureCheck =
  | { valid: true; expires: number }
  | { valid: false; reason: 'missing' | 'expired' | 'forged' };

export function checkSignature(
  secret: string,
  path: string,
  query: { e?: string | undefined; s?: string | undefined },
  now = Date.now(),
): SignatureCheck {
  if (!query.e || !query.s) return { valid: false, reason: 'missing' };
  // Decimal digits only: `1e9`, `0x…`, `0…` or `….0` would be other URLs for the same link.
  if (!EXPIRY.test(query.e)) return { valid: false, reason: 'forged' };
  const expires = Number(query.e);
  const expected = Buffer.from(signature(secret, path, expires));
  const sent = Buffer.from(query.s);
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return { valid: false, reason: 'forged' };
  if (expires * 1000 <= now) return { valid: false, reason: 'expired' };
  return { valid: true, expires };
}

export const qualityRank = (quality: Quality) => QUALITIES.indexOf(quality);
