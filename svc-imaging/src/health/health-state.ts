import type { CaptureStatus } from '../database.ts';

export type HealthState = 'ok' | 'late' | 'failing' | 'offline';

/** Intervals without a new picture after which a camera is late… */
export const LATE_INTERVALS = 2;
/** …and offline (silent), the existing rule of the dashboard, the metrics and the offline layers. */
export const SILENT_INTERVALS = 3;
/** Consecutive failed capture attempts after which a fetched camera is failing. */
export const FAILING_ATTEMPTS = 2;
/** How many of a camera's latest captures the judgement reads. */
export const RECENT_CAPTURES = 10;

/** One of a camera's captures, as the judgement reads it. */
export interface RecentCapture {
  status: CaptureStatus;
  startedAt: Date;
  contentHash: string | null;
  error: string | null;
}

export interface HealthInput {
  intervalMin: number;
  /** Cameras that push their pictures (FTP, HTTP push) make no attempts: only late and offline apply. */
  pushed: boolean;
  /** The camera's latest captures of any status, newest first (at least `RECENT_CAPTURES` when there are). */
  recent: RecentCapture[];
}

export interface Health {
  state: HealthState;
  /** Since when the state holds (the oldest of the captures read, at most); null for ok. */
  since: Date | null;
  /** offline: 'frozen' or 'silent'; failing: the latest error; otherwise null. */
  reason: string | null;
}

/**
 * A camera's health at `now`, worst first: offline (its last two pictures are the same bytes since the first
 * of them, or none for three intervals since the last one), failing (its last attempts failed, since the
 * first of them), late (no new picture for two intervals, since the last one), else ok. A camera that never
 * delivered is only judged failing.
 */
export function judgeHealth(input: HealthInput, now: Date): Health {
  const interval = input.intervalMin * 60_000;
  const done = input.recent.filter((capture) => capture.status === 'done');
  const [last, previous] = done;
  const quiet = last ? now.getTime() - last.startedAt.getTime() : 0;
  if (last && quiet > SILENT_INTERVALS * interval) return { state: 'offline', since: last.startedAt, reason: 'silent' };
  if (last && previous && last.contentHash !== null && last.contentHash === previous.contentHash)
    return { state: 'offline', since: previous.startedAt, reason: 'frozen' };
  if (!input.pushed) {
    // A running attempt has no outcome yet: the finished ones before it count.
    const finished = input.recent.filter((capture) => capture.status !== 'running');
    const failedRun = finished.findIndex((capture) => capture.status !== 'failed');
    const failures = failedRun === -1 ? finished : finished.slice(0, failedRun);
    const [latestFailure] = failures;
    if (latestFailure && failures.length >= FAILING_ATTEMPTS)
      return { state: 'failing', since: failures.at(-1)?.startedAt ?? null, reason: latestFailure.error };
  }
  if (last && quiet > LATE_INTERVALS * interval) return { state: 'late', since: last.startedAt, reason: null };
  return { state: 'ok', since: null, reason: null };
}
