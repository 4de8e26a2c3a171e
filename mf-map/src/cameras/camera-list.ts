import { type CameraListItem, cameraPath, type Image, PAGE_DATA_IDS, type Webcam } from '@lakecams/contracts';
import { apiJson } from '@lakecams/session';
import { forgetPageData, keptPageData } from '@lakecams/ui-kit';
import { VIEWER_PARAM } from '../camera/moment-link.ts';
import { CAMERA_LIST_PATH } from '../api/map-api.ts';

export { CAMERA_LIST_PATH };

/** A camera the portal shows, with its latest image. */
export interface ListedCamera {
  webcam: Webcam;
  latest: Image;
}

/** A camera is listed only with at least one image; `images[0]` is the latest (docs/product.md §2.3). */
export function listedCameras(items: readonly CameraListItem[]): ListedCamera[] {
  const listed: ListedCamera[] = [];
  for (const item of items) {
    const latest = item.images.find((image) => image !== null);
    if (latest) listed.push({ webcam: item.webcam, latest });
  }
  return listed;
}

/**
 * The camera list the gateway wrote into this page's HTML (home and all cameras), for the first list shown;
 * `forgetPageCameras` after it was used, so a later page of the visit asks the server.
 */
export function pageCameras(): ListedCamera[] | undefined {
  return listedCamerasOf(keptPageData(PAGE_DATA_IDS.cameraList));
}

/** The listed cameras of a camera list as the page data holds it; undefined for anything else. */
export function listedCamerasOf(list: unknown): ListedCamera[] | undefined {
  return Array.isArray(list) ? listedCameras(list as CameraListItem[]) : undefined;
}

export function forgetPageCameras(): void {
  forgetPageData(PAGE_DATA_IDS.cameraList);
}

export async function fetchListedCameras(signal?: AbortSignal): Promise<ListedCamera[]> {
  const items = await apiJson<CameraListItem[]>(CAMERA_LIST_PATH, signal ? { signal } : undefined);
  return listedCameras(items);
}

/**
 * A live image replaces the camera's latest one (an equal name is a position correction);
 * `known` is false when no listed camera took it, so the list must be fetched again.
 */
export function withLiveImage(
  cameras: readonly ListedCamera[],
  image: Image,
): { cameras: readonly ListedCamera[]; known: boolean } {
  const index = cameras.findIndex((camera) => camera.webcam.id === image.webcamId);
  const camera = cameras[index];
  if (!camera) return { cameras, known: false };
  if (image.name < camera.latest.name) return { cameras, known: true };
  const next = cameras.slice();
  next[index] = { ...camera, latest: image };
  return { cameras: next, known: true };
}

/** Exactly lat 0 / lng 0 means "no position" (the position dialog's default). */
export function hasPosition(image: Pick<Image, 'lat' | 'lng'>): boolean {
  return Number.isFinite(image.lat) && Number.isFinite(image.lng) && !(image.lat === 0 && image.lng === 0);
}

export function positionedCameras(cameras: readonly ListedCamera[]): ListedCamera[] {
  return cameras.filter((camera) => hasPosition(camera.latest));
}

export { cameraPath };

/** The camera page with the current picture opened in the full-screen viewer. */
export function viewerPath(name: string): string {
  return `${cameraPath(name)}?${VIEWER_PARAM}=1`;
}
