import { formatImageTime } from '../cameras/image-time.ts';
import { instantOfImage, useNow } from '../cameras/picture-age.tsx';
import './camera-offline.css';

/** Intervals without a new picture after which a camera is offline: svc-imaging's "silent" rule. */
export const SILENT_INTERVALS = 3;

/**
 * The camera's newest picture when the camera is offline at `now` (nothing new for three of its intervals),
 * else null. The page holds both already: the newest day's pictures and the camera's interval.
 */
export function offlineSince(newest: string | undefined, intervalMin: number | undefined, now: number): string | null {
  if (!newest || !intervalMin) return null;
  const instant = instantOfImage(newest);
  if (instant === null) return null;
  return now - instant > SILENT_INTERVALS * intervalMin * 60_000 ? newest : null;
}

/** "Kamera offline seit 27.11.2026, 08:05 Uhr" (Zurich time, as picture names are). */
export const offlineText = (newest: string) => `Kamera offline seit ${formatImageTime(newest)} Uhr`;

/** Whether the camera is offline now, kept current by the page's clock; the newest picture's name if so. */
export function useOfflineSince(newest: string | undefined, intervalMin: number | undefined): string | null {
  return offlineSince(newest, intervalMin, useNow());
}
