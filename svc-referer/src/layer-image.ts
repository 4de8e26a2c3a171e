import {
  exceedsPictureLimit,
  MAX_PICTURE_PIXELS,
  PICTURE_FORMATS,
  PICTURE_TOO_LARGE_MESSAGE,
} from '@lakecams/contracts';
import { createHash } from 'node:crypto';
import sharp from 'sharp';

/** Largest layer upload accepted (spec: size limits not shown). */
export const LAYER_UPLOAD_BYTES = 5 * 1024 * 1024;

export interface LayerImage {
  png: Buffer;
  hash: string;
  width: number;
  height: number;
}

/** Why a layer image is refused: the status and message to answer. */
export interface LayerImageRefusal {
  status: 400 | 413;
  message: string;
}

const NOT_AN_IMAGE: LayerImageRefusal = { status: 400, message: 'The file is not an image' };

/**
 * Layer uploads are decoded, never trusted by name or type, and stored as PNG so transparency survives.
 * Refused: what sharp cannot read in full as JPEG, PNG or WebP, and pictures over the pixel limit.
 */
export async function normalizeLayerImage(bytes: Buffer): Promise<LayerImage | LayerImageRefusal> {
  try {
    // The header alone, so that a picture over the limit is told so rather than "not an image".
    const header = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (!PICTURE_FORMATS.includes(header.format ?? '')) return NOT_AN_IMAGE;
    if (exceedsPictureLimit(header)) return { status: 413, message: PICTURE_TOO_LARGE_MESSAGE };
    const image = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_PICTURE_PIXELS });
    const { data, info } = await image.rotate().png({ compressionLevel: 6 }).toBuffer({ resolveWithObject: true });
    return { png: data, hash: createHash('sha256').update(data).digest('hex'), width: info.width, height: info.height };
  } catch {
    return NOT_AN_IMAGE;
  }
}
