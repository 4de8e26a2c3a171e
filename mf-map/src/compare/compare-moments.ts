import { clockTimeOf, formatDay, isoDayOf } from '../cameras/image-time.ts';

/**
 * How far back a preset looks from picture A, in calendar terms (a month back from 31 March is 28 or 29 February;
 * docs/product.md §4.6).
 */
export type PresetId = 'day' | 'week' | 'month' | 'year';

export const PRESETS: readonly { id: PresetId; label: string }[] = [
  { id: 'day', label: 'Vor einem Tag' },
  { id: 'week', label: 'Vor einer Woche' },
  { id: 'month', label: 'Vor einem Monat' },
  { id: 'year', label: 'Vor einem Jahr' },
];

const two = (n: number) => String(n).padStart(2, '0');
const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The day a preset names, from A's day (`YYYY-MM-DD`); calendar arithmetic on dates, so no time zone enters. */
export function presetDay(day: string, preset: PresetId): string {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  if (preset === 'day' || preset === 'week') {
    const moved = new Date(Date.UTC(year, month - 1, date - (preset === 'day' ? 1 : 7)));
    return moved.toISOString().slice(0, 10);
  }
  const [toYear, toMonth] = preset === 'month' ? (month === 1 ? [year - 1, 12] : [year, month - 1]) : [year - 1, month];
  return `${toYear}-${two(toMonth)}-${two(Math.min(date, daysInMonth(toYear, toMonth)))}`;
}

/** Minutes since midnight of a picture name (`yyyyMMddHHmm`, Zurich's clock). */
const minuteOfDay = (name: string) => Number(name.slice(8, 10)) * 60 + Number(name.slice(10, 12));

/**
 * The picture whose clock time is nearest to `moment`'s; of two equally near the earlier one.
 * The day's names are those of one day, so the clock alone decides.
 */
export function nearestByTimeOfDay(names: readonly string[], moment: string): string | null {
  const wanted = minuteOfDay(moment);
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of names) {
    const distance = Math.abs(minuteOfDay(name) - wanted);
    if (distance < bestDistance || (distance === bestDistance && best !== null && name < best)) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/** "Aufnahme vom Sonntag, 22. November 2026, 12:35 Uhr" */
export const takenAt = (name: string) => `Aufnahme vom ${formatDay(isoDayOf(name))}, ${clockTimeOf(name)} Uhr`;

export const missingDayNote = (day: string) => `Vom ${formatDay(day)} gibt es kein Bild.`;
export const MALFORMED_VERSUS_NOTE = 'Der Link nennt keinen gültigen Vergleichszeitpunkt. Wählen Sie Bild B neu.';
export const unknownVersusNote = (name: string) =>
  `Vom ${formatDay(isoDayOf(name), 'short')}, ${clockTimeOf(name)} Uhr gibt es kein Bild (mehr). Wählen Sie Bild B neu.`;

/** The swipe divider's position (0–100: how much of picture A shows, from the left). */
export const DIVIDER_START = 50;
const DIVIDER_STEP = 5;
const DIVIDER_PAGE = 20;

/** Where a key moves the divider (as a slider: arrows a step, Page Up/Down a larger one, Home/End the ends), or null. */
export function dividerAfterKey(position: number, key: string): number | null {
  const clamp = (value: number) => Math.min(100, Math.max(0, value));
  const from = Math.round(position);
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return clamp(from - DIVIDER_STEP);
    case 'ArrowRight':
    case 'ArrowUp':
      return clamp(from + DIVIDER_STEP);
    case 'PageDown':
      return clamp(from - DIVIDER_PAGE);
    case 'PageUp':
      return clamp(from + DIVIDER_PAGE);
    case 'Home':
      return 0;
    case 'End':
      return 100;
    default:
      return null;
  }
}
