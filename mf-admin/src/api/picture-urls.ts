/**
 * Every address of a camera's picture or player this remote puts into a page (`<img src>`, a download link, the
 * snippets partners copy, the player's frame); the calls are in admin-api.ts and jobs-api.ts
 * (docs/decisions.md, "One API module per remote, one route table").
 */

/** The public address of a camera's current picture (Image/Get): each caller gets the level it is entitled to. */
export const cameraImagePath = (cameraName: string) => `/api/Image/Get/camera/${encodeURIComponent(cameraName)}.jpg`;

/** The current picture past the browser's cache, e.g. right after an upload (`version`: any number new to it). */
export const freshCameraImagePath = (cameraName: string, version: number) =>
  `${cameraImagePath(cameraName)}?v=${version}`;

/** The absolute address of a camera's current picture, as partner pages embed it. */
export function embedImageUrl(origin: string, cameraName: string): string {
  return new URL(cameraImagePath(cameraName), origin).href;
}

/**
 * The picture as the partner page gets it (its quality and layers), past every cache: picture delivery
 * serves `page=` to that page's owner or an Admin.
 */
export function pagePreviewUrl(cameraName: string, page: string, version: number): string {
  return `${cameraImagePath(cameraName)}?page=${encodeURIComponent(page)}&v=${version}`;
}

/** The player's frame document, as a partner page frames it (`page`: the owner's preview of that page). */
export function playerFramePath(cameraName: string, page?: string): string {
  const path = `/api/Image/Embed/camera/${encodeURIComponent(cameraName)}`;
  return page ? `${path}?page=${encodeURIComponent(page)}` : path;
}
