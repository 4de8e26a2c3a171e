import type { Quality } from '@lakecams/contracts';

/**
 * Every address of a picture mf-map shows, in one place (docs/decisions.md, "One API module per remote, one route
 * table"): svc-imaging's entitlement URLs, which answer with the caller's level.
 */
const IMAGE_ROOT = '/api/Image/Get/camera';

/** One picture by its capture name: immutable, so a new name is a new URL and the cache never shows an old one. */
export function imageUrl(camera: string, imageName: string): string {
  return `${IMAGE_ROOT}/${encodeURIComponent(camera)}/${encodeURIComponent(imageName)}.jpg`;
}

/** `/api/Image/Zoom/camera/{name}/{moment}.dzi?level=`: the level is part of the URL, tiles inherit it. */
export function zoomDescriptorUrl(camera: string, moment: string, level: Quality): string {
  return `/api/Image/Zoom/camera/${encodeURIComponent(camera)}/${encodeURIComponent(moment)}.dzi?level=${level}`;
}

/** A camera's day as a time-lapse clip (`day`: `YYYY-MM-DD`). */
export function timelapseUrl(camera: string, day: string): string {
  return `/api/Image/Timelapse/camera/${encodeURIComponent(camera)}/${day}.mp4`;
}
