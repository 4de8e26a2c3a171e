import type { Webcam } from '@lakecams/contracts';
import { apiJson } from '@lakecams/session';
import { CAMERAS_PATH } from '../camera/image-history.ts';
import { IMAGE_DAYS_PATH, type ImageDays, shiftMonth } from '../camera/image-days.tsx';

/** Where a day stands in the archive of all cameras: the days with pictures around it, and the archive's ends. */
export interface DayNeighbours {
  /** The latest day with pictures before the day. */
  previous: string | null;
  /** The earliest day with pictures after the day. */
  next: string | null;
  /** The first and the last day with pictures of any camera (null: no pictures at all). */
  first: string | null;
  last: string | null;
}

const monthOf = (day: string) => day.slice(0, 7);

/**
 * Looks up the days with pictures from each camera's calendar (`GetImageDays`, month by month): a day has a best
 * picture exactly when some camera has a picture that day. Months already asked for are kept, so stepping through
 * a month asks once.
 */
export function createArchiveDays() {
  let cameras: Promise<string[]> | null = null;
  const months = new Map<string, Promise<ImageDays[]>>();

  // Answers are shared by later look-ups, so no one look-up's abort cancels them; a failed one is asked again.
  const cameraNames = () => {
    if (!cameras) {
      const loading = apiJson<Webcam[]>(CAMERAS_PATH).then((list) => list.map((camera) => camera.name));
      loading.catch(() => {
        if (cameras === loading) cameras = null;
      });
      cameras = loading;
    }
    return cameras;
  };

  /** Each camera's days of the month (`names`: the cameras that may have any). */
  const month = (names: readonly string[], month: string) => {
    const key = `${month} ${names.join('/')}`;
    let known = months.get(key);
    if (!known) {
      known = Promise.all(
        names.map((name) => apiJson<ImageDays>(`${IMAGE_DAYS_PATH}?${new URLSearchParams({ name, month })}`)),
      );
      months.set(key, known);
      known.catch(() => months.delete(key));
    }
    return known;
  };

  const daysOf = (calendars: readonly ImageDays[]) => [...new Set(calendars.flatMap((c) => c.days))].sort();

  return async function neighbours(day: string): Promise<DayNeighbours> {
    const start = await month(await cameraNames(), monthOf(day));
    const ranges = start.flatMap((c) => (c.first && c.last ? [{ name: c.camera, first: c.first, last: c.last }] : []));
    const first = ranges.map((r) => r.first).sort()[0] ?? null;
    const last =
      ranges
        .map((r) => r.last)
        .sort()
        .at(-1) ?? null;
    if (!first || !last) return { previous: null, next: null, first, last };

    /** Month by month away from the day, asking only the cameras whose pictures reach that month. */
    const search = async (direction: -1 | 1): Promise<string | null> => {
      if (direction < 0 ? day <= first : day >= last) return null;
      if (direction < 0 && day > last) return last;
      if (direction > 0 && day < first) return first;
      for (
        let m = monthOf(day);
        direction < 0 ? m >= monthOf(first) : m <= monthOf(last);
        m = shiftMonth(m, direction)
      ) {
        const reaching = ranges.filter((r) => monthOf(r.first) <= m && m <= monthOf(r.last)).map((r) => r.name);
        const found = daysOf(m === monthOf(day) ? start : await month(reaching, m)).filter((d) =>
          direction < 0 ? d < day : d > day,
        );
        const nearest = direction < 0 ? found.at(-1) : found[0];
        if (nearest) return nearest;
      }
      return null;
    };
    const [previous, next] = await Promise.all([search(-1), search(1)]);
    return { previous, next, first, last };
  };
}

/** The day with pictures nearest to an empty day; the earlier of two as near. */
export function nearestDay({ previous, next }: Pick<DayNeighbours, 'previous' | 'next'>, day: string): string | null {
  if (!previous || !next) return previous ?? next;
  const distance = (other: string) => Math.abs(Date.parse(other) - Date.parse(day));
  return distance(next) < distance(previous) ? next : previous;
}
