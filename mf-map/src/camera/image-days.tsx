import { apiJson } from '@lakecams/session';
import { useEffect, useState } from 'react';
import { IMAGE_DAYS_PATH } from '../api/map-api.ts';

export { IMAGE_DAYS_PATH };

/** `GET /api/Webcam/GetImageDays`: the days of a month with pictures, and the camera's first and last day. */
export interface ImageDays {
  camera: string;
  month: string;
  days: string[];
  first: string | null;
  last: string | null;
}

export type ImageDaysState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; days: ImageDays };

/** `2026-11` moved by whole months. */
export function shiftMonth(month: string, by: number): string {
  const [year = 0, number = 1] = month.split('-').map(Number);
  const date = new Date(Date.UTC(year, number - 1 + by, 1));
  return date.toISOString().slice(0, 7);
}

export const monthTitle = (month: string) =>
  new Intl.DateTimeFormat('de-CH', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month}-15T12:00:00Z`),
  );

/** A camera's days with pictures in one month, and whether the archive reaches a month earlier or later. */
export function useImageDays(camera: string, month: string) {
  const [state, setState] = useState<ImageDaysState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt loads again.
  useEffect(() => {
    const abort = new AbortController();
    setState({ status: 'loading' });
    apiJson<ImageDays>(`${IMAGE_DAYS_PATH}?${new URLSearchParams({ name: camera, month })}`, {
      signal: abort.signal,
    }).then(
      (days) => setState({ status: 'ready', days }),
      () => {
        if (!abort.signal.aborted) setState({ status: 'failed' });
      },
    );
    return () => abort.abort();
  }, [camera, month, attempt]);

  const ready = state.status === 'ready' ? state.days : null;
  return {
    state,
    ready,
    earlier: ready?.first ? ready.first.slice(0, 7) < month : false,
    later: ready?.last ? ready.last.slice(0, 7) > month : false,
    retry: () => setAttempt((n) => n + 1),
  };
}

/** ◀ month ▶, each arrow off where the camera's archive ends. */
export function MonthStepper({
  className,
  month,
  earlier,
  later,
  onMonth,
  heading = false,
}: {
  className: string;
  month: string;
  earlier: boolean;
  later: boolean;
  onMonth: (month: string) => void;
  /** The month's name as a heading (the calendar) rather than a label (the picker). */
  heading?: boolean;
}) {
  const Title = heading ? 'h2' : 'span';
  return (
    <div className={className}>
      <button
        type="button"
        className="button-quiet"
        disabled={!earlier}
        onClick={() => onMonth(shiftMonth(month, -1))}
        aria-label="Vorheriger Monat"
      >
        ◀
      </button>
      <Title aria-live="polite">{monthTitle(month)}</Title>
      <button
        type="button"
        className="button-quiet"
        disabled={!later}
        onClick={() => onMonth(shiftMonth(month, 1))}
        aria-label="Nächster Monat"
      >
        ▶
      </button>
    </div>
  );
}

/** The note when a month's days could not be loaded, with a retry. */
export function ImageDaysFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <p className="status-note status-note--error" role="alert">
      Die Tage mit Bildern konnten nicht geladen werden.{' '}
      <button type="button" onClick={onRetry}>
        Erneut versuchen
      </button>
    </p>
  );
}
