import { apiJson } from '@lakecams/session';
import { useEffect, useState } from 'react';
import './image-calendar.css';

export const IMAGE_DAYS_PATH = '/api/Webcam/GetImageDays';

/** `GET /api/Webcam/GetImageDays`: the days of a month with pictures, and the camera's first and last day. */
export interface ImageDays {
  camera: string;
  month: string;
  days: string[];
  first: string | null;
  last: string | null;
}

const WEEKDAYS = ['Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa', 'So'];

/** `2026-11` moved by whole months. */
export function shiftMonth(month: string, by: number): string {
  const [year = 0, number = 1] = month.split('-').map(Number);
  const date = new Date(Date.UTC(year, number - 1 + by, 1));
  return date.toISOString().slice(0, 7);
}

/** The month's days in weeks from Monday; null pads the first and last week. */
export function monthWeeks(month: string): (string | null)[][] {
  const [year = 0, number = 1] = month.split('-').map(Number);
  const first = new Date(Date.UTC(year, number - 1, 1));
  const length = new Date(Date.UTC(year, number, 0)).getUTCDate();
  const cells: (string | null)[] = Array.from({ length: (first.getUTCDay() + 6) % 7 }, () => null);
  for (let day = 1; day <= length; day++) cells.push(`${month}-${String(day).padStart(2, '0')}`);
  while (cells.length % 7 !== 0) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, week) => cells.slice(week * 7, week * 7 + 7));
}

const monthTitle = (month: string) =>
  new Intl.DateTimeFormat('de-CH', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month}-15T12:00:00Z`),
  );

type DaysState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; days: ImageDays };

/**
 * The camera's archive as a calendar: days with pictures open in the slider (the last 14 days every
 * picture, older days the pictures the archive kept).
 */
export function ImageCalendar({
  camera,
  day,
  onSelectDay,
}: {
  camera: string;
  day: string;
  onSelectDay: (day: string) => void;
}) {
  const [month, setMonth] = useState(day.slice(0, 7));
  const [state, setState] = useState<DaysState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // Another day chosen in the slider: the calendar turns to its month.
  useEffect(() => setMonth(day.slice(0, 7)), [day]);

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
  const withPictures = new Set(ready?.days ?? []);
  const earlier = ready?.first ? ready.first.slice(0, 7) < month : false;
  const later = ready?.last ? ready.last.slice(0, 7) > month : false;

  return (
    <details className="image-calendar">
      <summary>Kalender: frühere Tage ansehen</summary>
      <div className="image-calendar__month">
        <button
          type="button"
          className="button-quiet"
          disabled={!earlier}
          onClick={() => setMonth(shiftMonth(month, -1))}
          aria-label="Vorheriger Monat"
        >
          ◀
        </button>
        <h2 aria-live="polite">{monthTitle(month)}</h2>
        <button
          type="button"
          className="button-quiet"
          disabled={!later}
          onClick={() => setMonth(shiftMonth(month, 1))}
          aria-label="Nächster Monat"
        >
          ▶
        </button>
      </div>
      {state.status === 'failed' && (
        <p className="status-note status-note--error" role="alert">
          Die Tage mit Bildern konnten nicht geladen werden.{' '}
          <button type="button" onClick={() => setAttempt((n) => n + 1)}>
            Erneut versuchen
          </button>
        </p>
      )}
      <table className="image-calendar__grid" aria-busy={state.status === 'loading'}>
        <thead>
          <tr>
            {WEEKDAYS.map((weekday) => (
              <th key={weekday} scope="col">
                {weekday}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthWeeks(month).map((week) => (
            <tr key={week.find((cell) => cell !== null) ?? ''}>
              {week.map((cell, index) => (
                <td key={cell ?? `pad-${index}`}>
                  {cell && (
                    <button
                      type="button"
                      disabled={!withPictures.has(cell)}
                      aria-current={cell === day ? 'date' : undefined}
                      aria-label={`${Number(cell.slice(8))}. ${monthTitle(month)}${withPictures.has(cell) ? '' : ', keine Bilder'}`}
                      onClick={() => onSelectDay(cell)}
                    >
                      {Number(cell.slice(8))}
                    </button>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
