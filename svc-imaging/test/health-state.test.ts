import { describe, expect, it } from 'vitest';
import { judgeHealth, type RecentCapture } from '../src/health/health-state.ts';

const NOW = new Date('2026-11-27T12:00:00Z');
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);
const done = (minutes: number, contentHash = `hash-${minutes}`): RecentCapture => ({
  status: 'done',
  startedAt: minutesAgo(minutes),
  contentHash,
  error: null,
});
const failed = (minutes: number, error = 'HTTP 503'): RecentCapture => ({
  status: 'failed',
  startedAt: minutesAgo(minutes),
  contentHash: null,
  error,
});
const fetched = (recent: RecentCapture[]) => judgeHealth({ intervalMin: 5, pushed: false, recent }, NOW);
const pushed = (recent: RecentCapture[]) => judgeHealth({ intervalMin: 5, pushed: true, recent }, NOW);

describe('a camera’s health from its latest captures', () => {
  it('is ok while pictures arrive every interval', () => {
    expect(fetched([done(1), done(6)])).toEqual({ state: 'ok', since: null, reason: null });
  });

  it('is late after two intervals without a new picture, since the last one', () => {
    expect(fetched([done(10), done(15)])).toMatchObject({ state: 'ok' });
    expect(fetched([done(11), done(16)])).toEqual({ state: 'late', since: minutesAgo(11), reason: null });
  });

  it('is offline (silent) after three intervals, since the last picture', () => {
    expect(fetched([done(16), done(21)])).toEqual({ state: 'offline', since: minutesAgo(16), reason: 'silent' });
  });

  it('is offline (frozen) when the last two pictures are the same bytes, since the first of them', () => {
    expect(fetched([done(1, 'same'), done(6, 'same'), done(11)])).toEqual({
      state: 'offline',
      since: minutesAgo(6),
      reason: 'frozen',
    });
  });

  it('is failing when the last two attempts failed, since the first failure, with the latest error', () => {
    expect(fetched([failed(1, 'Timeout'), failed(6), done(11)])).toEqual({
      state: 'failing',
      since: minutesAgo(6),
      reason: 'Timeout',
    });
    // One failure is not yet failing, and a running attempt does not end the run of failures.
    expect(fetched([failed(1), done(6)])).toMatchObject({ state: 'ok' });
    expect(fetched([{ ...failed(0), status: 'running', error: null }, failed(5), failed(10), done(12)])).toMatchObject({
      state: 'failing',
      since: minutesAgo(10),
    });
  });

  it('is failing before its first picture, and otherwise not judged then', () => {
    expect(fetched([failed(1), failed(6), failed(11)])).toMatchObject({ state: 'failing', since: minutesAgo(11) });
    expect(fetched([])).toEqual({ state: 'ok', since: null, reason: null });
  });

  it('puts offline before failing', () => {
    expect(fetched([failed(1), failed(6), failed(11), done(16)])).toMatchObject({ state: 'offline', reason: 'silent' });
  });

  it('knows only late and offline for a camera that pushes its pictures', () => {
    expect(pushed([failed(1), failed(6), done(7)])).toMatchObject({ state: 'ok' });
    expect(pushed([done(12)])).toMatchObject({ state: 'late' });
    expect(pushed([done(16)])).toMatchObject({ state: 'offline', reason: 'silent' });
  });
});
