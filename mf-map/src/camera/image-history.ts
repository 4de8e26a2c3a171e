import type { Image, Webcam } from '@lakecams/contracts';
import { ApiError, apiJson } from '@lakecams/session';
import { isoDayOf } from '../cameras/image-time.ts';

export const IMAGE_HISTORY_PATH = '/api/Webcam/GetImageHistory';
export const CAMERAS_PATH = '/api/Webcam/GetCameras';

/** `GET /api/Webcam/GetImageHistory`: one day's images (oldest first) and the days that have images (newest first). */
export interface ImageHistory {
  camera: string;
  day: string;
  days: string[];
  images: Image[];
}

/** The day's history, or null for an unknown camera. `day` absent means today (Europe/Zurich). */
export async function fetchImageHistory(
  name: string,
  day?: string,
  signal?: AbortSignal,
): Promise<ImageHistory | null> {
  const query = new URLSearchParams({ name });
  if (day) query.set('day', day);
  try {
    return await apiJson<ImageHistory>(`${IMAGE_HISTORY_PATH}?${query}`, signal ? { signal } : undefined);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/**
 * Today's images, or those of the latest day with images when today has none yet (e.g. just after midnight;
 * docs/product.md §4.4).
 */
export async function fetchLatestHistory(name: string, signal?: AbortSignal): Promise<ImageHistory | null> {
  const today = await fetchImageHistory(name, undefined, signal);
  const latestDay = today?.days[0];
  if (!today || today.images.length > 0 || !latestDay || latestDay === today.day) return today;
  return fetchImageHistory(name, latestDay, signal);
}

export async function fetchWebcam(name: string, signal?: AbortSignal): Promise<Webcam | null> {
  const cameras = await apiJson<Webcam[]>(
    `${CAMERAS_PATH}?${new URLSearchParams({ name })}`,
    signal ? { signal } : undefined,
  );
  return cameras.find((camera) => camera.name === name) ?? null;
}

/** A live image joins the history: its day becomes selectable, and it joins the shown day's images in order. */
export function historyWithImage(history: ImageHistory, image: Image): ImageHistory {
  const day = isoDayOf(image.name);
  if (!day) return history;
  const days = history.days.includes(day) ? history.days : [...history.days, day].sort().reverse();
  if (day !== history.day) return days === history.days ? history : { ...history, days };
  const others = history.images.filter((known) => known.name !== image.name);
  const images = [...others, image].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { ...history, days, images };
}
