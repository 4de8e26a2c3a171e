import { formatImageTime } from '../cameras/image-time.ts';
import { instantOfImage, useNow } from '../cameras/picture-age.tsx';
import './camera-offline.css';

/** Intervals without a new picture after which a camera is offline: svc-imaging's "silent" rule. */
export const SILENT_INTERVALS = 3;

/**
 * Since when the camera is offline at `now`, else null: frozen (its newest picture is the same as those before
 * it since `frozenSince`), or silent (nothing new for three of its intervals since its newest picture). Frozen
 * wins: a camera that froze and then fell silent has shown nothing new since it froze. The page holds all of it
 * already: the newest day's pictures with their history's `frozenSince`, and the camera's interval.
 */
export function offlineSince(
  newest: string | undefined,
  intervalMin: number | undefined,
  now: number,
  frozenSince: string | null = null,
): string | null {
  if (frozenSince) return frozenSince;
  if (!newest || !intervalMin) return null;
  const instant = instantOfImage(newest);
  if (instant === null) return null;
  return now - instant > SILENT_INTERVALS * intervalMin * 60_000 ? newest : null;
}

/** "Kamera offline seit 27.11.2026, 08:05 Uhr" (Zurich time, as picture names are). */
export const offlineText = (newest: string) => `Kamera offline seit ${formatImageTime(newest)} Uhr`;

/** Whether the camera is offline now, kept current by the page's clock; the picture it is offline since if so. */
export function useOfflineSince(
  newest: string | undefined,
  intervalMin: number | undefined,
  frozenSince: string | null,
): string | null {
  return offlineSince(newest, intervalMin, useNow(), frozenSince);
}
