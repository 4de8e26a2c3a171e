import { isValidCameraName, type Quality } from '@lakecams/contracts';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const IMAGE_NAME = /^\d{12}$/;

/**
 * Image files on disk: `<root>/<camera>/<yyyyMMdd>/<yyyyMMddHHmm>-<QUALITY>.jpg`. Paths are built only
 * from validated camera names and image names, never from raw input.
 */
export function createImageStore(root: string) {
  function folder(camera: string, imageName: string): string {
    if (!isValidCameraName(camera) || !IMAGE_NAME.test(imageName)) throw new Error('invalid camera or image name');
    return join(root, camera, imageName.slice(0, 8));
  }

  return {
    root,
    path(camera: string, imageName: string, quality: Quality): string {
      return join(folder(camera, imageName), `${imageName}-${quality}.jpg`);
    },
    async save(camera: string, imageName: string, variants: Record<Quality, Buffer>): Promise<void> {
      const dir = folder(camera, imageName);
      await mkdir(dir, { recursive: true });
      // Write then rename, so a reader never sees half a file.
      await Promise.all(
        Object.entries(variants).map(async ([quality, bytes]) => {
          const target = join(dir, `${imageName}-${quality}.jpg`);
          await writeFile(`${target}.tmp`, bytes);
          await rename(`${target}.tmp`, target);
        }),
      );
    },
    /** Remove whole days older than `keepFromDay` (yyyyMMdd) for every camera. */
    async pruneDaysBefore(keepFromDay: string): Promise<number> {
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
    },
    async removeCamera(camera: string): Promise<void> {
      if (isValidCameraName(camera)) await rm(join(root, camera), { recursive: true, force: true });
    },
  };
}

export type ImageStore = ReturnType<typeof createImageStore>;
