import { useEffect, useState } from 'react';
import { ImageDaysFailed, MonthStepper, monthTitle, useImageDays } from './image-days.tsx';
import './image-calendar.css';

const WEEKDAYS = ['Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa', 'So'];

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
  const { state, ready, earlier, later, retry } = useImageDays(camera, month);
  // Another day chosen in the slider: the calendar turns to its month.
  useEffect(() => setMonth(day.slice(0, 7)), [day]);
  const withPictures = new Set(ready?.days ?? []);

  return (
    <details className="image-calendar">
      <summary>Kalender: frühere Tage ansehen</summary>
      <MonthStepper
        className="image-calendar__month"
        month={month}
        earlier={earlier}
        later={later}
        onMonth={setMonth}
        heading
      />
      {state.status === 'failed' && <ImageDaysFailed onRetry={retry} />}
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
