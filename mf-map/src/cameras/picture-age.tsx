import { PAGE_DATA_IDS } from '@lakecams/contracts';
import { usePageData } from '@lakecams/ui-kit';
import { useSyncExternalStore } from 'react';
import { formatImageTime } from './image-time.ts';
import './picture-age.css';

const IMAGE_NAME = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})$/;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const zurichClock = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Zurich',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});

/** Milliseconds since the epoch read as Zurich wall time, as if that were UTC. */
function zurichWallTime(instant: number): number {
  const parts = Object.fromEntries(zurichClock.formatToParts(instant).map((part) => [part.type, Number(part.value)]));
  return Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0);
}

/** The instant of an image name (`yyyyMMddHHmm`, Zurich time), or null for another name. */
export function instantOfImage(imageName: string): number | null {
  const match = IMAGE_NAME.exec(imageName);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  // Zurich is UTC+1 or +2: its offset at the guessed instant, checked once more across a DST change.
  let instant = asUtc - (zurichWallTime(asUtc) - asUtc);
  instant = asUtc - (zurichWallTime(instant) - instant);
  return instant;
}

/** "gerade eben", "vor 3 Min.", "vor 2 Std.", "vor 1 Tag", "vor 4 Tagen" (docs/product.md §4.7). */
export function ageLabel(ageMs: number): string {
  if (ageMs < MINUTE) return 'gerade eben';
  if (ageMs < HOUR) return `vor ${Math.floor(ageMs / MINUTE)} Min.`;
  if (ageMs < DAY) return `vor ${Math.floor(ageMs / HOUR)} Std.`;
  const days = Math.floor(ageMs / DAY);
  return days === 1 ? 'vor 1 Tag' : `vor ${days} Tagen`;
}

/** Every age label on the page follows one clock: one timer while any is shown, none after. */
const TICK_MS = 15_000;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;
let now = Date.now();

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, TICK_MS);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) clearInterval(timer);
  };
}

/**
 * The current time, renewed every 15 s while a component uses it; a page rendered on the server shows and hydrates
 * with the moment it was rendered, and the time of the browser right after.
 */
export function useNow(): number {
  const renderedAt = usePageData<number>(PAGE_DATA_IDS.renderedAt);
  return useSyncExternalStore(
    subscribe,
    () => now,
    () => renderedAt ?? now,
  );
}

/** How old a picture is, said the way a visitor reads it and kept up to date. */
export function PictureAge({ imageName }: { imageName: string }) {
  const current = useNow();
  const instant = instantOfImage(imageName);
  if (instant === null) return null;
  return (
    <time
      className="picture-age"
      dateTime={new Date(instant).toISOString()}
      title={`${formatImageTime(imageName)} Uhr`}
    >
      {ageLabel(current - instant)}
    </time>
  );
}
