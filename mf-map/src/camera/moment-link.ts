import { clockTimeOf, formatDay, isoDayOf } from '../cameras/image-time.ts';

/** `webcam/{name}?t=yyyyMMddHHmm`: the picture of that minute (docs/product.md §4.5). */
export const MOMENT_PARAM = 't';
/** `webcam/{name}?zoom`: the picture opened in the full-screen viewer. */
export const VIEWER_PARAM = 'zoom';

export type MomentRequest = { kind: 'current' } | { kind: 'moment'; name: string; day: string } | { kind: 'malformed' };

/** What the URL's `t` asks for: nothing (the current picture), a minute on the calendar, or nonsense. */
export function momentRequest(t: string | null): MomentRequest {
  if (t === null || t === '') return { kind: 'current' };
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(t);
  if (!match) return { kind: 'malformed' };
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute));
  const onCalendar =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute;
  return onCalendar ? { kind: 'moment', name: t, day: isoDayOf(t) } : { kind: 'malformed' };
}

export interface LoadedHistory {
  day: string;
  /** Days with pictures, newest first. */
  days: readonly string[];
  /** Names of the loaded day's pictures. */
  names: readonly string[];
}

export type MomentStep =
  /** The loaded day holds it: show that picture (null: the day's latest). */
  | { step: 'show'; name: string | null }
  | { step: 'load-day'; day: string }
  /** Not to be had: show the current picture and tell the visitor why. */
  | { step: 'fall-back'; note: string };

export const MALFORMED_NOTE = 'Der Link nennt keinen gültigen Zeitpunkt. Gezeigt wird das aktuelle Bild.';
export const unknownMomentNote = (name: string) =>
  `Vom ${formatDay(isoDayOf(name), 'short')}, ${clockTimeOf(name)} Uhr gibt es kein Bild (mehr). Gezeigt wird das aktuelle Bild.`;

/** The next step towards the picture the URL names, given the day that is loaded. */
export function momentStep(request: MomentRequest, history: LoadedHistory): MomentStep {
  const newest = history.days[0] ?? history.day;
  switch (request.kind) {
    case 'current':
      return history.day === newest ? { step: 'show', name: null } : { step: 'load-day', day: newest };
    case 'malformed':
      return { step: 'fall-back', note: MALFORMED_NOTE };
    case 'moment':
      if (history.day === request.day)
        return history.names.includes(request.name)
          ? { step: 'show', name: request.name }
          : { step: 'fall-back', note: unknownMomentNote(request.name) };
      return history.days.includes(request.day)
        ? { step: 'load-day', day: request.day }
        : { step: 'fall-back', note: unknownMomentNote(request.name) };
  }
}

/** The URL's `t` for a selected picture: none for the current one, so that a bookmark keeps following it. */
export const momentParam = (name: string, current: boolean): string | null => (current ? null : name);

/** `webcam/{name}?compare=side|swipe`: the compare view is open, in that layout. */
export const COMPARE_PARAM = 'compare';
/** `webcam/{name}?vs=yyyyMMddHHmm`: the picture compared with the shown one (`t`). */
export const VERSUS_PARAM = 'vs';

export type CompareLayout = 'side' | 'swipe';

/** The compare view's layout the URL asks for: null when it is closed; anything unknown is side by side. */
export function compareLayoutOf(value: string | null): CompareLayout | null {
  if (value === null) return null;
  return value === 'swipe' ? 'swipe' : 'side';
}
