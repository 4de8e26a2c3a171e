import {
  exceedsPictureLimit,
  MAX_PICTURE_PIXELS,
  PICTURE_FORMATS,
  PICTURE_TOO_LARGE_MESSAGE,
} from '@lakecams/contracts';
import sharp from 'sharp';
import type { CameraRow } from '../database.ts';
import { type CaptureContext, type CaptureOutcome, captureTick } from './capture-tick.ts';
import { captureTimeOf } from './capture-time.ts';

/** Why a picture handed in is refused (status and message), or null when it is a picture within the limits. */
export async function uploadProblem(bytes: Buffer): Promise<{ status: 400 | 413; message: string } | null> {
  const notAnImage = { status: 400, message: 'The file is not an image' } as const;
  if (bytes.length === 0) return notAnImage;
  try {
    // The header alone, so that a picture over the limit is told so rather than "not an image".
    const header = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (!PICTURE_FORMATS.includes(header.format ?? '')) return notAnImage;
    if (exceedsPictureLimit(header)) return { status: 413, message: PICTURE_TOO_LARGE_MESSAGE };
    await sharp(bytes, { failOn: 'error', limitInputPixels: MAX_PICTURE_PIXELS }).stats();
    return null;
  } catch {
    return notAnImage;
  }
}

/**
 * The tick a pushed picture belongs to: the start of the camera's interval it was taken in (as the schedule's
 * `*\/n` minutes), so a camera pushing more often than its interval keeps the latest picture of each slot.
 */
export function slotOf(taken: Date, intervalMin: number): Date {
  const interval = Math.min(60, Math.max(1, intervalMin));
  const slot = new Date(taken);
  slot.setUTCSeconds(0, 0);
  // Zurich's offsets are whole hours: the minute within the hour is the same in local time.
  slot.setUTCMinutes(slot.getUTCMinutes() - (slot.getUTCMinutes() % interval));
  return slot;
}

export type IngestOutcome = CaptureOutcome | { outcome: 'refused'; status: 400 | 413; message: string };

/**
 * A picture a camera pushed (FTP, HTTP) or an admin uploaded: checked like an upload, timed by its EXIF
 * capture time when plausible, then captured as its slot's picture through the same pipeline as a fetched one.
 */
export async function ingestPicture(
  context: CaptureContext,
  camera: CameraRow,
  bytes: Buffer,
  arrived: Date,
): Promise<IngestOutcome> {
  const problem = await uploadProblem(bytes);
  if (problem) return { outcome: 'refused', ...problem };
  const { exif } = await sharp(bytes).metadata();
  const taken = captureTimeOf(exif, arrived);
  return captureTick(context, camera, slotOf(taken, camera.intervalMin), 1, bytes);
}
