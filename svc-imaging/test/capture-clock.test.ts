import { Cron } from 'croner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { nextTickAfter, scaledClock } from '../src/capture/capture-clock.ts';
import { createCaptureScheduler, cronPatternFor } from '../src/capture/scheduler.ts';

const ANCHOR = new Date(2026, 10, 27, 9, 59, 40).getTime();

describe('a scaled capture clock (tests only): camera minutes in real seconds, the same on every replica', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(ANCHOR);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs scale times faster from the anchor, alike for every replica given the same anchor', () => {
    const a = scaledClock(30, ANCHOR);
    vi.advanceTimersByTime(2000);
    const b = scaledClock(30, ANCHOR);
    expect(a().getTime()).toBe(ANCHOR + 60_000);
    expect(b().getTime()).toBe(a().getTime());
    expect(scaledClock(1, ANCHOR)().getTime()).toBe(Date.now());
  });

  it('names the next tick as croner would, for every interval', () => {
    const starts = [
      new Date(2026, 10, 27, 9, 59, 40),
      new Date(2026, 10, 27, 10, 0, 0),
      new Date(2026, 10, 27, 23, 58, 1),
    ];
    for (const interval of [1, 2, 5, 7, 15, 45, 60]) {
      for (const start of starts) {
        expect(nextTickAfter(start, interval), `${interval} after ${start.toISOString()}`).toEqual(
          new Cron(cronPatternFor(interval), { paused: true }).nextRun(start),
        );
      }
    }
  });

  it('fires every virtual minute on the minute, each camera on its interval', async () => {
    const clock = scaledClock(30, ANCHOR);
    const ticks: [number, Date, Date][] = [];
    const scheduler = createCaptureScheduler(
      async (webcamId, tick) => {
        ticks.push([webcamId, tick, clock()]);
      },
      { clock, scale: 30 },
    );
    scheduler.schedule({ webcamId: 1, intervalMin: 1 });
    scheduler.schedule({ webcamId: 2, intervalMin: 2 });
    // 09:59:40 virtual: the first tick at 10:00, 20 virtual seconds or 667 ms later.
    expect(scheduler.nextRun(1)).toEqual(new Date(2026, 10, 27, 10, 0));
    await vi.advanceTimersByTimeAsync(666);
    expect(ticks).toEqual([]);
    await vi.advanceTimersByTimeAsync(1 + 4 * 2000);
    // Cameras due at the same minute fire in either order.
    const inOrder = [...ticks].sort(([a, at], [b, bt]) => at.getTime() - bt.getTime() || a - b);
    expect(inOrder.map(([id, tick]) => [id, tick.getHours(), tick.getMinutes(), tick.getSeconds()])).toEqual([
      [1, 10, 0, 0],
      [2, 10, 0, 0],
      [1, 10, 1, 0],
      [1, 10, 2, 0],
      [2, 10, 2, 0],
      [1, 10, 3, 0],
      [1, 10, 4, 0],
      [2, 10, 4, 0],
    ]);
    // Each fires as its virtual minute begins, not later.
    for (const [, tick, firedAt] of ticks) expect(firedAt.getTime() - tick.getTime()).toBeLessThan(60_000 / 30 / 2);
    expect(scheduler.nextRun(1)).toEqual(new Date(2026, 10, 27, 10, 5));

    scheduler.unschedule(2);
    scheduler.stop();
    await vi.advanceTimersByTimeAsync(10 * 2000);
    expect(ticks).toHaveLength(8);
    expect(scheduler.size).toBe(0);
  });

  it('does not let a slow or failing capture hold back the next tick', async () => {
    const clock = scaledClock(30, ANCHOR);
    const ticks: number[] = [];
    const scheduler = createCaptureScheduler(
      async (_id, tick) => {
        ticks.push(tick.getMinutes());
        // Many virtual minutes for the first, as a real capture's seconds are; the second fails.
        if (ticks.length === 1) await new Promise((resolve) => setTimeout(resolve, 10_000));
        if (ticks.length === 2) throw new Error('camera down');
      },
      { clock, scale: 30 },
    );
    scheduler.schedule({ webcamId: 1, intervalMin: 1 });
    await vi.advanceTimersByTimeAsync(667 + 3 * 2000);
    expect(ticks).toEqual([0, 1, 2, 3]);
    scheduler.stop();
  });

  it('keeps croner on the real clock at scale 1', () => {
    const scheduler = createCaptureScheduler(async () => {}, { clock: () => new Date(), scale: 1 });
    scheduler.schedule({ webcamId: 1, intervalMin: 5 });
    expect(scheduler.nextRun(1)).toEqual(new Date(2026, 10, 27, 10, 0));
    scheduler.stop();
  });
});
