import { describe, expect, it } from 'vitest';
import { byteRangeOf, clipDayOf } from '../src/delivery/timelapse-request.ts';
import { clipSize } from '../src/archive/timelapse-encoder.ts';
import { isDayFinished, timelapseLevelFor } from '../src/archive/timelapse-maker.ts';

describe('time-lapse rules', () => {
  it('reads the day of a clip name and refuses malformed, impossible and future days', () => {
    expect(clipDayOf('2026-11-24.mp4', '20261125')).toEqual({ day: '20261124' });
    expect(clipDayOf('2026-11-25.mp4', '20261125')).toEqual({ day: '20261125' });
    expect(clipDayOf('2026-11-26.mp4', '20261125')).toEqual({ problem: '2026-11-26 is still to come' });
    expect(clipDayOf('2026-02-29.mp4', '20261125')).toEqual({ problem: '2026-02-29 is not a date' });
    for (const bad of ['2026-11-24.webm', '20261124.mp4', '2026-1-24.mp4', '../2026-11-24.mp4', ''])
      expect(clipDayOf(bad, '20261125')).toHaveProperty('problem', expect.stringMatching(/yyyy-MM-dd/));
  });

  it('serves one byte range, the whole file for none, and refuses a range beyond the file', () => {
    expect(byteRangeOf(undefined, 1000)).toBeNull();
    expect(byteRangeOf('bytes=0-', 1000)).toEqual({ start: 0, end: 999 });
    expect(byteRangeOf('bytes=100-199', 1000)).toEqual({ start: 100, end: 199 });
    expect(byteRangeOf('bytes=900-5000', 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRangeOf('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRangeOf('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(byteRangeOf('bytes=5-2', 1000)).toBe('unsatisfiable');
    // Several ranges or other units: the whole file.
    expect(byteRangeOf('bytes=0-1,5-6', 1000)).toBeNull();
    expect(byteRangeOf('items=0-1', 1000)).toBeNull();
  });

  it('caps clips at MEDIUM and keeps lower entitlements', () => {
    expect(['POOR', 'LOW', 'MEDIUM', 'HIGH', 'FULL'].map((q) => timelapseLevelFor(q as never))).toEqual([
      'POOR',
      'LOW',
      'MEDIUM',
      'MEDIUM',
      'MEDIUM',
    ]);
  });

  it('sizes clips even, at most the level width and never wider than the pictures', () => {
    expect(clipSize(2560, 1440, 1280)).toEqual({ width: 1280, height: 720 });
    expect(clipSize(2560, 1440, 480)).toEqual({ width: 480, height: 270 });
    expect(clipSize(801, 601, 1280)).toEqual({ width: 800, height: 600 });
    expect(clipSize(1000, 333, 800)).toEqual({ width: 800, height: 266 });
  });

  it('counts a day finished five minutes after midnight in Zurich', () => {
    // 2026-11-24 23:02 UTC is 00:02 on the 25th in Zurich.
    expect(isDayFinished('20261124', new Date('2026-11-24T23:02:00Z'))).toBe(false);
    expect(isDayFinished('20261124', new Date('2026-11-24T23:06:00Z'))).toBe(true);
    expect(isDayFinished('20261125', new Date('2026-11-24T23:06:00Z'))).toBe(false);
  });
});
