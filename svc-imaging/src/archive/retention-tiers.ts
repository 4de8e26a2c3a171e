import { imageNameOf } from '@lakecams/contracts';

export const DEFAULT_RETENTION_DAYS = 14;
export const DEFAULT_ARCHIVE_DAYS = 365;

export interface RetentionTiers {
  /** Every capture is kept this many days… */
  retentionDays: number;
  /** …then the best of each hour until this many days; the best of each day is kept forever. */
  archiveDays: number;
}

export type Tier = 'all' | 'hourly' | 'daily';

/** A stored picture as the prune sees it. */
export interface StoredPicture {
  webcamId: number;
  /** `yyyyMMddHHmm`, local time. */
  name: string;
  score: number | null;
}

/** The day (`yyyyMMdd`) from which every capture is kept, and the one from which one per hour is. */
export function tierBoundaries(tiers: RetentionTiers, now: Date): { allFrom: string; hourlyFrom: string } {
  const daysAgo = (days: number) => imageNameOf(new Date(now.getTime() - days * 24 * 3600_000)).slice(0, 8);
  const allFrom = daysAgo(tiers.retentionDays);
  const hourlyFrom = daysAgo(Math.max(tiers.archiveDays, tiers.retentionDays));
  return { allFrom, hourlyFrom };
}

export function tierOfDay(day: string, boundaries: { allFrom: string; hourlyFrom: string }): Tier {
  if (day >= boundaries.allFrom) return 'all';
  return day >= boundaries.hourlyFrom ? 'hourly' : 'daily';
}

/** Highest score wins; between equals the earlier picture (closer to the full hour) does. */
function best(pictures: readonly StoredPicture[]): StoredPicture | undefined {
  let winner: StoredPicture | undefined;
  for (const picture of pictures) {
    if (!winner || (picture.score ?? -1) > (winner.score ?? -1)) winner = picture;
    else if ((picture.score ?? -1) === (winner.score ?? -1) && picture.name < winner.name) winner = picture;
  }
  return winner;
}

/** The best picture of a camera's day: the admin's choice when it is among them, else the highest score. */
export function bestOfDay(pictures: readonly StoredPicture[], chosen?: string): StoredPicture | undefined {
  return pictures.find((picture) => picture.name === chosen) ?? best(pictures);
}

/** Which of one camera's day of pictures its tier keeps, by name, oldest first. */
export function keptOfDay(pictures: readonly StoredPicture[], tier: Tier, chosen?: string): string[] {
  if (tier === 'all') return pictures.map((picture) => picture.name).sort();
  const kept = new Set<string>();
  const dayBest = bestOfDay(pictures, chosen);
  if (dayBest) kept.add(dayBest.name);
  if (tier === 'hourly') {
    const hours = new Map<string, StoredPicture[]>();
    for (const picture of pictures) {
      const hour = picture.name.slice(0, 10);
      const list = hours.get(hour);
      if (list) list.push(picture);
      else hours.set(hour, [picture]);
    }
    for (const hour of hours.values()) {
      const hourBest = best(hour);
      if (hourBest) kept.add(hourBest.name);
    }
  }
  return [...kept].sort();
}

export interface DayPlan {
  webcamId: number;
  day: string;
  keep: string[];
  remove: string[];
}

/**
 * What the tiers keep of a list of pictures (any cameras, any days), per camera and day; days that lose
 * nothing are left out. `choices` maps `webcamId:yyyyMMdd` to the admin's best of that day.
 */
export function planRetention(
  pictures: readonly StoredPicture[],
  choices: ReadonlyMap<string, string>,
  tiers: RetentionTiers,
  now: Date,
): DayPlan[] {
  const boundaries = tierBoundaries(tiers, now);
  const days = new Map<string, StoredPicture[]>();
  for (const picture of pictures) {
    const key = `${picture.webcamId}:${picture.name.slice(0, 8)}`;
    const list = days.get(key);
    if (list) list.push(picture);
    else days.set(key, [picture]);
  }
  const plans: DayPlan[] = [];
  for (const [key, dayPictures] of days) {
    const [webcamId, day] = key.split(':') as [string, string];
    const keep = keptOfDay(dayPictures, tierOfDay(day, boundaries), choices.get(key));
    if (keep.length === dayPictures.length) continue;
    const kept = new Set(keep);
    const remove = dayPictures
      .map((picture) => picture.name)
      .filter((name) => !kept.has(name))
      .sort();
    plans.push({ webcamId: Number(webcamId), day, keep, remove });
  }
  return plans.sort((a, b) => a.webcamId - b.webcamId || (a.day < b.day ? -1 : 1));
}
