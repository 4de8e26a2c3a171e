import { imageNameOf } from '@lakecams/contracts';
import { describe, expect, it } from 'vitest';
import { keptOfDay, planRetention, type StoredPicture } from '../src/archive/retention-tiers.ts';

const NOW = new Date('2026-11-25T02:17:00Z');
const TIERS = { retentionDays: 14, archiveDays: 365 };

/** A camera captured every 20 minutes for 400 days; scores vary so that each day and hour has one winner. */
function history(webcamId: number): StoredPicture[] {
  const pictures: StoredPicture[] = [];
  const seen = new Set<string>();
  const step = 20 * 60_000;
  const start = Math.floor(NOW.getTime() / step) * step;
  for (let at = start; at > start - 400 * 24 * 3600_000; at -= step) {
    const name = imageNameOf(new Date(at));
    // The hour the clocks go back repeats its names: a camera stores each name once.
    if (seen.has(name)) continue;
    seen.add(name);
    const minute = Number(name.slice(10, 12));
    const hour = Number(name.slice(8, 10));
    // The day's best is at 12:20; within each hour the :20 picture scores highest.
    pictures.push({ webcamId, name, score: (minute === 20 ? 50 : 10) + (hour === 12 ? 40 : 0) });
  }
  return pictures;
}

function survivors(pictures: StoredPicture[], choices = new Map<string, string>()): Map<string, string[]> {
  const removed = new Set(
    planRetention(pictures, choices, TIERS, NOW).flatMap((plan) =>
      plan.remove.map((name) => `${plan.webcamId}:${name}`),
    ),
  );
  const byDay = new Map<string, string[]>();
  for (const picture of pictures) {
    if (removed.has(`${picture.webcamId}:${picture.name}`)) continue;
    const day = picture.name.slice(0, 8);
    byDay.set(day, [...(byDay.get(day) ?? []), picture.name]);
  }
  return byDay;
}

const dayAgo = (days: number) => imageNameOf(new Date(NOW.getTime() - days * 24 * 3600_000)).slice(0, 8);

describe('retention tiers over 400 days of captures', () => {
  const pictures = history(1);
  const kept = survivors(pictures);

  it('keeps every capture of the last 14 days', () => {
    for (const days of [0, 1, 7, 13, 14]) {
      const all = pictures.filter((p) => p.name.startsWith(dayAgo(days)));
      expect(kept.get(dayAgo(days))?.length, `${days} days ago`).toBe(all.length);
    }
  });

  it('keeps the best picture of each hour from 15 to 365 days back', () => {
    for (const days of [15, 100, 364]) {
      const names = kept.get(dayAgo(days)) ?? [];
      expect(names.length, `${days} days ago`).toBe(24);
      expect(names.every((name) => name.endsWith('20'))).toBe(true);
    }
  });

  it('keeps only the best picture of the day beyond 365 days, forever', () => {
    for (const days of [366, 380, 399]) {
      expect(kept.get(dayAgo(days)), `${days} days ago`).toEqual([`${dayAgo(days)}1220`]);
    }
    // Every one of the 400 days still has a picture.
    expect(kept.size).toBeGreaterThanOrEqual(400);
  });

  it('keeps the admin’s choice of a day instead of the highest score', () => {
    const day = dayAgo(390);
    const chosen = `${day}0740`;
    const withChoice = survivors(pictures, new Map([[`1:${day}`, chosen]]));
    expect(withChoice.get(day)).toEqual([chosen]);
    // In the hourly tier the choice is kept besides the best of its hour.
    const archived = dayAgo(30);
    expect(survivors(pictures, new Map([[`1:${archived}`, `${archived}0740`]])).get(archived)).toContain(
      `${archived}0740`,
    );
  });

  it('plans nothing for days that already hold only what their tier keeps, and keeps cameras apart', () => {
    const thinned = pictures.filter((p) => kept.get(p.name.slice(0, 8))?.includes(p.name));
    expect(planRetention(thinned, new Map(), TIERS, NOW)).toEqual([]);
    const plans = planRetention([...history(1), ...history(2)], new Map(), TIERS, NOW);
    expect(new Set(plans.map((plan) => plan.webcamId))).toEqual(new Set([1, 2]));
  });

  it('prefers a scored picture over an unscored one and the earlier of equals', () => {
    const day = [
      { webcamId: 1, name: '202501011000', score: null },
      { webcamId: 1, name: '202501011020', score: 30 },
      { webcamId: 1, name: '202501011040', score: 30 },
    ];
    expect(keptOfDay(day, 'daily')).toEqual(['202501011020']);
    expect(keptOfDay(day, 'all')).toHaveLength(3);
  });
});
