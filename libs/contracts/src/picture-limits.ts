/** 8K: no camera is larger, and it bounds the memory a decode takes (camera pictures and layers alike). */
export const MAX_PICTURE_SIZE = { width: 7680, height: 4320 } as const;
export const MAX_PICTURE_PIXELS = MAX_PICTURE_SIZE.width * MAX_PICTURE_SIZE.height;

/** What an upload over the limit is told: the limit in pixels, and what that means as a picture. */
export const PICTURE_TOO_LARGE_MESSAGE = `The picture is too large: at most ${MAX_PICTURE_PIXELS} pixels (${MAX_PICTURE_SIZE.width} × ${MAX_PICTURE_SIZE.height})`;

/** Whether a picture of this size (from its header) is over the limit. */
export function exceedsPictureLimit({ width = 0, height = 0 }: { width?: number; height?: number }): boolean {
  return width * height > MAX_PICTURE_PIXELS;
}

/** Formats accepted for uploads (sharp's names); SVG and PDF are rendered by other libraries (scripts, external references). */
export const PICTURE_FORMATS: readonly string[] = ['jpeg', 'png', 'webp'];
