import type { Quality } from '@lakecams/contracts';
import type { Sharp } from 'sharp';
import { JPEG_QUALITY } from './quality.ts';

/** What a picture URL can answer with; JPEG always exists, the others where a variant was made. */
export const PICTURE_ENCODINGS = ['avif', 'webp', 'jpeg'] as const;
export type PictureEncoding = (typeof PICTURE_ENCODINGS)[number];
export type ModernEncoding = Exclude<PictureEncoding, 'jpeg'>;
export const MODERN_ENCODINGS: readonly ModernEncoding[] = ['avif', 'webp'];

export const CONTENT_TYPES: Readonly<Record<PictureEncoding, string>> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
};
export const FILE_EXTENSIONS: Readonly<Record<PictureEncoding, string>> = { avif: 'avif', webp: 'webp', jpeg: 'jpg' };

/**
 * Levels that get AVIF and WebP copies at capture. FULL stays the camera's own JPEG: re-encoding a 4K
 * picture costs a core over a second in AVIF and loses a generation (decisions.md, "Modern picture formats").
 */
export type ScaledQuality = Exclude<Quality, 'FULL'>;
export const hasModernVariants = (quality: Quality): quality is ScaledQuality => quality !== 'FULL';

/** AVIF and WebP copies of the scaled levels of one capture. */
export type ModernVariants = Record<ModernEncoding, Partial<Record<Quality, Buffer>>>;

/** Encoder quality of each format (0–100; each encoder's own scale). */
export const ENCODER_QUALITY: Readonly<Record<PictureEncoding, number>> = { avif: 55, webp: 75, jpeg: JPEG_QUALITY };

/**
 * Encoder settings, measured in bench/formats.ts against JPEG quality 80 on SSIM: AVIF at effort 0–1 (effort
 * 4, sharp's default, takes ten times as long for a few per cent), WebP at effort 2. `quality` overrides
 * the format's own (the benchmark searches it).
 */
export function encodePicture(
  image: Sharp,
  encoding: PictureEncoding,
  width: number,
  quality = ENCODER_QUALITY[encoding],
): Sharp {
  switch (encoding) {
    case 'avif':
      return image.avif({ quality, effort: width <= 800 ? 1 : 0 });
    case 'webp':
      return image.webp({ quality, effort: 2 });
    case 'jpeg':
      return image.jpeg({ quality, mozjpeg: false, progressive: true });
  }
}

/** `POOR` + `avif` → `POOR.avif`: the object or file suffix of one variant. */
export const variantSuffix = (quality: Quality, encoding: PictureEncoding) => `${quality}.${FILE_EXTENSIONS[encoding]}`;

/** Every file of one capture as (suffix, bytes): the JPEG levels, then the AVIF and WebP copies. */
export function variantFiles(variants: Record<Quality, Buffer>, modern?: ModernVariants): [string, Buffer][] {
  const files = Object.entries(variants).map(([quality, bytes]): [string, Buffer] => [
    variantSuffix(quality as Quality, 'jpeg'),
    bytes,
  ]);
  for (const encoding of MODERN_ENCODINGS) {
    for (const [quality, bytes] of Object.entries(modern?.[encoding] ?? {})) {
      if (bytes) files.push([variantSuffix(quality as Quality, encoding), bytes]);
    }
  }
  return files;
}
