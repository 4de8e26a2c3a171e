import { MAX_PICTURE_PIXELS, QUALITIES, type Quality } from '@lakecams/contracts';
import sharp, { type OutputInfo } from 'sharp';
import { encodePicture, MODERN_ENCODINGS, type ModernVariants } from '../store/formats.ts';
import { QUALITY_WIDTHS } from '../store/quality.ts';

// Files are written once and read by the delivery path, sharp's cache only holds memory.
sharp.cache(false);

export interface QualityVariants {
  width: number;
  height: number;
  variants: Record<Quality, Buffer>;
  /** AVIF and WebP copies of every level below FULL. */
  modern: ModernVariants;
}

export class UnsupportedImageError extends Error {}

/**
 * Decode once, then derive every quality level from the decoded pixels, each resized once and encoded as
 * JPEG, AVIF and WebP. FULL keeps the camera's own JPEG bytes untouched; other inputs are re-encoded.
 */
export async function deriveQualityVariants(input: Buffer): Promise<QualityVariants> {
  let decoded: { data: Buffer; info: OutputInfo };
  let format: string | undefined;
  try {
    const image = sharp(input, { failOn: 'error', limitInputPixels: MAX_PICTURE_PIXELS }).rotate();
    format = (await image.metadata()).format;
    decoded = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new UnsupportedImageError(`Not a decodable image: ${(error as Error).message}`);
  }
  const { data, info } = decoded;
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } } as const;
  const encode = (width: number) =>
    encodePicture(sharp(data, raw).resize({ width, withoutEnlargement: true }), 'jpeg', width).toBuffer();
  const levels = QUALITIES.filter((q): q is Exclude<Quality, 'FULL'> => q !== 'FULL');
  const modern: ModernVariants = { avif: {}, webp: {} };
  const encoded = await Promise.all(
    levels.map(async (quality) => {
      const width = QUALITY_WIDTHS[quality];
      const scaled = await sharp(data, raw)
        .resize({ width, withoutEnlargement: true })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const level = () => sharp(scaled.data, { raw: scaled.info });
      const [jpeg, ...others] = await Promise.all([
        encodePicture(level(), 'jpeg', width).toBuffer(),
        ...MODERN_ENCODINGS.map((encoding) => encodePicture(level(), encoding, width).toBuffer()),
      ]);
      MODERN_ENCODINGS.forEach((encoding, i) => {
        modern[encoding][quality] = others[i];
      });
      return jpeg as Buffer;
    }),
  );
  const full = format === 'jpeg' ? input : await encode(info.width);
  const variants = Object.fromEntries(levels.map((quality, i) => [quality, encoded[i]])) as Record<Quality, Buffer>;
  variants.FULL = full;
  return { width: info.width, height: info.height, variants, modern };
}
