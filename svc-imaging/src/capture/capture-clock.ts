/**
 * A capture clock that runs `scale` times faster than real time from `anchorMs` (CAPTURE_CLOCK_SCALE and
 * CAPTURE_CLOCK_ANCHOR, for tests only): virtual now = anchor + (real now − anchor) × scale. Replicas given
 * the same anchor and scale agree on the virtual time, so they claim the same ticks.
 */
export function scaledClock(scale: number, anchorMs: number, realNow: () => number = () => Date.now()): () => Date {
  return () => new Date(anchorMs + (realNow() - anchorMs) * scale);
}

/** The next virtual tick strictly after `now`, every `intervalMin` minutes on the minute, as `cronPatternFor` has it. */
export function nextTickAfter(now: Date, intervalMin: number): Date {
  const interval = Math.min(60, Math.max(1, intervalMin));
  const tick = new Date(now);
  tick.setSeconds(0, 0);
  do tick.setMinutes(tick.getMinutes() + 1);
  while (tick.getMinutes() % interval !== 0);
  return tick;
}
