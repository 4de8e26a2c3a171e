import { useEffect, useRef, useState } from 'react';
import { ImageDaysFailed, MonthStepper, useImageDays } from '../camera/image-days.tsx';
import { clockTimeOf, formatDay, isoDayOf } from '../cameras/image-time.ts';
import { nearestByTimeOfDay } from './compare-moments.ts';

/** Any moment: a month, one of its days with pictures, then one of that day's pictures. */
export function MomentPicker({
  camera,
  moment,
  chosen,
  load,
  onPick,
}: {
  camera: string;
  moment: string;
  chosen: string | null;
  load: (day: string) => Promise<string[]>;
  onPick: (name: string) => void;
}) {
  const start = chosen ?? moment;
  const [month, setMonth] = useState(isoDayOf(start).slice(0, 7));
  const [day, setDay] = useState<string | null>(chosen ? isoDayOf(chosen) : null);
  const [names, setNames] = useState<readonly string[]>([]);
  const picks = useRef(0);
  const { state, ready, earlier, later, retry } = useImageDays(camera, month);

  // B chosen elsewhere (a preset): the picker turns to its day.
  useEffect(() => {
    if (!chosen) return;
    setDay(isoDayOf(chosen));
    setMonth(isoDayOf(chosen).slice(0, 7));
  }, [chosen]);

  useEffect(() => {
    if (!day) return;
    let current = true;
    setNames([]);
    load(day).then(
      (found) => {
        if (current) setNames(found);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [day, load]);

  const pickDay = (picked: string) => {
    setDay(picked);
    const ticket = ++picks.current;
    // The day's picture nearest to A's time of day, changeable below.
    load(picked).then(
      (found) => {
        const nearest = nearestByTimeOfDay(found, moment);
        if (nearest && ticket === picks.current) onPick(nearest);
      },
      () => undefined,
    );
  };

  return (
    <div className="compare__picker" id="compare-picker">
      <MonthStepper className="compare__month" month={month} earlier={earlier} later={later} onMonth={setMonth} />
      {state.status === 'failed' && <ImageDaysFailed onRetry={retry} />}
      <label className="compare__select">
        <span>Tag</span>
        <select
          value={day && ready?.days.includes(day) ? day : ''}
          disabled={!ready || ready.days.length === 0}
          onChange={(event) => pickDay(event.target.value)}
        >
          <option value="" disabled>
            {ready && ready.days.length === 0 ? 'Keine Bilder in diesem Monat' : 'Tag wählen'}
          </option>
          {[...(ready?.days ?? [])].reverse().map((option) => (
            <option key={option} value={option}>
              {formatDay(option, 'short')}
            </option>
          ))}
        </select>
      </label>
      <label className="compare__select">
        <span>Uhrzeit</span>
        <select
          value={chosen && names.includes(chosen) ? chosen : ''}
          disabled={names.length === 0}
          onChange={(event) => onPick(event.target.value)}
        >
          <option value="" disabled>
            Uhrzeit wählen
          </option>
          {names.map((name) => (
            <option key={name} value={name}>
              {clockTimeOf(name)} Uhr
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
