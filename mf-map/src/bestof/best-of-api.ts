import { type BestOf, BEST_OF_DAY_PATH, bestOfDayCall, type CameraBestOf } from '@lakecams/contracts';
import { type ApiClient, apiJson } from '@lakecams/session';
import { SET_BEST_OF_PATH } from '../api/map-api.ts';

export { SET_BEST_OF_PATH };

export { BEST_OF_DAY_PATH };

/** `GET /api/Webcam/GetBestOfDay`: the best picture of every camera on a day. */
export interface BestOfDay {
  day: string;
  today: string;
  pictures: CameraBestOf[];
}

export function fetchBestOfDay(day: string | undefined, signal?: AbortSignal): Promise<BestOfDay> {
  return apiJson<BestOfDay>(bestOfDayCall(day), signal ? { signal } : undefined);
}

/** An admin's choice of a camera's best picture of a day; `image` null lets the score choose again. */
export function chooseBestOf(api: ApiClient, camera: string, day: string, image: string | null): Promise<BestOf> {
  const query = new URLSearchParams({ name: camera, day, ...(image ? { image } : {}) });
  return api.json<BestOf>(`${SET_BEST_OF_PATH}?${query}`, { method: image ? 'PUT' : 'DELETE' });
}

/** `2026-11-22` moved by whole days (calendar arithmetic at noon UTC, so no clock change shifts it). */
export function shiftDay(isoDay: string, days: number): string {
  const date = new Date(`${isoDay}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
