import type { Image, Webcam } from '@lakecams/contracts';
import { ApiError, apiJson } from '@lakecams/session';
import { isoDayOf } from '../cameras/image-time.ts';
import type { LiveImage } from '../live/live-images.ts';
import { IMAGE_HISTORY_PATH, CAMERAS_PATH } from '../api/map-api.ts';

export { IMAGE_HISTORY_PATH, CAMERAS_PATH };

/** `GET /api/Webcam/GetImageHistory`: one day's images (oldest first) and the days that have images (newest first). */
export interface ImageHistory {
  camera: string;
  day: string;
  days: string[];
  images: Image[];
  /** The day's newest picture is frozen: the picture the run of equal ones began with; else null. */
  frozenSince: string | null;
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
    const history = await apiJson<ImageHistory>(`${IMAGE_HISTORY_PATH}?${query}`, signal ? { signal } : undefined);
    return { ...history, frozenSince: history.frozenSince ?? null };
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

/**
 * A live image joins the history: its day becomes selectable, and it joins the shown day's images in order.
 * As the day's newest, a frozen one starts a run at the picture before it (or keeps the run), another ends it.
 */
export function historyWithImage(history: ImageHistory, live: LiveImage): ImageHistory {
  const { frozen, ...image } = live;
  const day = isoDayOf(image.name);
  if (!day) return history;
  const days = history.days.includes(day) ? history.days : [...history.days, day].sort().reverse();
  if (day !== history.day) return days === history.days ? history : { ...history, days };
  const others = history.images.filter((known) => known.name !== image.name);
  const images = [...others, image].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const newest = images.at(-1) === image;
  let frozenSince = history.frozenSince;
  // Without the flag (a picture announced again) what was known stands.
  if (newest && frozen === false) frozenSince = null;
  if (newest && frozen === true) frozenSince ??= others.at(-1)?.name ?? image.name;
  return { ...history, days, images, frozenSince };
}
