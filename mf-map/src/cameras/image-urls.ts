const IMAGE_ROOT = '/api/Image/Get/camera';

/** The current picture; cached for a short while, so live updates use `imageUrl` instead. */
export function currentImageUrl(camera: string): string {
  return `${IMAGE_ROOT}/${encodeURIComponent(camera)}.jpg`;
}

/** One picture by its capture name: immutable, so a new name is a new URL and the cache never shows an old one. */
export function imageUrl(camera: string, imageName: string): string {
  return `${IMAGE_ROOT}/${encodeURIComponent(camera)}/${encodeURIComponent(imageName)}.jpg`;
}

/** What anonymous visitors get for the 16:9 demo cameras (POOR); boxes keep this ratio so nothing shifts. */
export const PREVIEW_SIZE = { width: 480, height: 270 } as const;
