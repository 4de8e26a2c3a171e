import { isValidCameraName, type Quality } from '@lakecams/contracts';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type ModernVariants, type PictureEncoding, variantFiles, variantSuffix } from './formats.ts';

const IMAGE_NAME = /^\d{12}$/;

/** Where the pictures of every quality level live; one implementation per kind of storage. */
export interface ImageStore {
  /** Where it keeps pictures, for logs and the job dashboard. */
  readonly description: string;
  /** The JPEG of every level, with the AVIF and WebP copies of the levels that have them. */
  save(camera: string, imageName: string, variants: Record<Quality, Buffer>, modern?: ModernVariants): Promise<void>;
  /** The picture (JPEG unless asked otherwise), or null when it is not (or no longer) stored. */
  read(camera: string, imageName: string, quality: Quality, encoding?: PictureEncoding): Promise<Buffer | null>;
  /** A day's time-lapse clip of one level (day `yyyyMMdd`), kept and pruned with that day's pictures. */
  saveClip(camera: string, day: string, level: Quality, bytes: Buffer): Promise<void>;
  readClip(camera: string, day: string, level: Quality): Promise<Buffer | null>;
  removeClip(camera: string, day: string, level: Quality): Promise<void>;
  /** Remove these pictures of a camera, every level and format; returns how many files went. */
  removePictures(camera: string, imageNames: readonly string[]): Promise<number>;
  /** Remove whole days older than `keepFromDay` (yyyyMMdd); returns how many camera-days went. */
  pruneDaysBefore(keepFromDay: string): Promise<number>;
  removeCamera(camera: string): Promise<void>;
  close(): Promise<void>;
}

/** Only validated names become paths or object names, never raw input. */
export function checkedNames(camera: string, imageName: string): void {
  if (!isValidCameraName(camera) || !IMAGE_NAME.test(imageName)) throw new Error('invalid camera or image name');
}

/** Remove the `<root>/<camera>/<yyyyMMdd>` folders older than `keepFromDay`; returns how many went. */
export async function removeDaysBefore(root: string, keepFromDay: string): Promise<number> {
  let removed = 0;
  for (const camera of await readdir(root).catch(() => [] as string[])) {
    if (!isValidCameraName(camera)) continue;
    for (const day of await readdir(join(root, camera)).catch(() => [] as string[])) {
      if (/^\d{8}$/.test(day) && day < keepFromDay) {
        await rm(join(root, camera, day), { recursive: true, force: true });
        removed += 1;
      }
    }
  }
  return removed;
}

/** Write then rename, so a reader never sees half a file. */
async function writeWhole(target: string, bytes: Buffer): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  await writeFile(`${target}.tmp`, bytes);
  await rename(`${target}.tmp`, target);
}

/**
 * Image files on disk: `<root>/<camera>/<yyyyMMdd>/<yyyyMMddHHmm>-<QUALITY>.<jpg|avif|webp>`. Paths are built
 * only from validated camera names and image names, never from raw input.
 */
export function createImageStore(
  root: string,
): ImageStore & { root: string; path(camera: string, imageName: string, quality: Quality): string } {
  function folder(camera: string, imageName: string): string {
    checkedNames(camera, imageName);
    return join(root, camera, imageName.slice(0, 8));
  }
  const path = (camera: string, imageName: string, quality: Quality, encoding: PictureEncoding = 'jpeg') =>
    join(folder(camera, imageName), `${imageName}-${variantSuffix(quality, encoding)}`);

  // In the day's folder, so the clip goes when the day's pictures go.
  const clipPath = (camera: string, day: string, level: Quality) =>
    join(folder(camera, `${day}0000`), `timelapse-${level}.mp4`);

  return {
    root,
    description: `files under ${root}`,
    path,
    read: (camera, imageName, quality, encoding) =>
      readFile(path(camera, imageName, quality, encoding)).catch(() => null),
    close: async () => {},
    saveClip: (camera, day, level, bytes) => writeWhole(clipPath(camera, day, level), bytes),
    readClip: (camera, day, level) => readFile(clipPath(camera, day, level)).catch(() => null),
    removeClip: (camera, day, level) => rm(clipPath(camera, day, level), { force: true }),
    async save(camera, imageName, variants, modern): Promise<void> {
      const dir = folder(camera, imageName);
      await mkdir(dir, { recursive: true });
      // Write then rename, so a reader never sees half a file.
      await Promise.all(
        variantFiles(variants, modern).map(async ([suffix, bytes]) => {
          const target = join(dir, `${imageName}-${suffix}`);
          await writeFile(`${target}.tmp`, bytes);
          await rename(`${target}.tmp`, target);
        }),
      );
    },
    /** Remove whole days older than `keepFromDay` (yyyyMMdd) for every camera. */
    pruneDaysBefore: (keepFromDay: string) => removeDaysBefore(root, keepFromDay),
    async removePictures(camera: string, imageNames: readonly string[]): Promise<number> {
      let removed = 0;
      for (const imageName of imageNames) {
        const dir = folder(camera, imageName);
        for (const file of await readdir(dir).catch(() => [] as string[])) {
          // Names are 12 digits: the prefix matches this picture's files only.
          if (!file.startsWith(`${imageName}-`)) continue;
          await rm(join(dir, file), { force: true });
          removed += 1;
        }
      }
      return removed;
    },
    async removeCamera(camera: string): Promise<void> {
      if (isValidCameraName(camera)) await rm(join(root, camera), { recursive: true, force: true });
    },
  };
}
