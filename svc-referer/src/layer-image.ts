import { createHash } from 'node:crypto';
import sharp from 'sharp';

/** Largest layer upload accepted (spec: size limits not shown). */
export const LAYER_UPLOAD_BYTES = 5 * 1024 * 1024;
/** 8K: no camera is larger, and it bounds the memory a decode can take. */
const MAX_INPUT_PIXELS = 7680 * 4320;
/** What the upload dialog offers; SVG and PDF are rendered by other libraries (scripts, external references). */
const PICTURE_FORMATS = new Set(['jpeg', 'png', 'webp']);

/**
 * Layer uploads are decoded, never trusted by name or type, and stored as PNG so transparency survives.
 * Returns null when the bytes are not an image sharp can read in full.
 */
export async function normalizeLayerImage(
  bytes: Buffer,
): Promise<{ png: Buffer; hash: string; width: number; height: number } | null> {
  try {
    const image = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS });
    if (!PICTURE_FORMATS.has((await image.metadata()).format ?? '')) return null;
    const { data, info } = await image.rotate().png({ compressionLevel: 6 }).toBuffer({ resolveWithObject: true });
    return { png: data, hash: createHash('sha256').update(data).digest('hex'), width: info.width, height: info.height };
  } catch {
    return null;
  }
}
