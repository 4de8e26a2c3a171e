import type { Image } from '@lakecams/contracts';
import { useEffect, useReducer, useRef, useState } from 'react';
import { clockTimeOf, formatDay, formatImageTime } from '../cameras/image-time.ts';
import { imageUrl } from '../api/picture-urls.ts';
import { PREVIEW_SIZE } from '../cameras/image-urls.ts';
import { PictureAge } from '../cameras/picture-age.tsx';
import type { ImagePreloader } from './image-preloader.ts';
import { QualityNote, useNoteExpected, useUpscaled, useViewer } from './quality-note.tsx';
import { initialTimelapse, isAtLatest, preloadOrder, timelapseReducer } from './timelapse.ts';

/** One timelapse frame; slow enough to see the boats move. */
export const FRAME_MS = 400;
const PRELOAD_AHEAD = 24;
const PRELOAD_AHEAD_PLAYING = 60;
const PRELOAD_BEHIND = 8;

interface TimeTravelProps {
  camera: string;
  day: string;
  days: readonly string[];
  /** The day's images, oldest first. */
  images: readonly Image[];
  dayLoading: boolean;
  onSelectDay: (day: string) => void;
  preloader: ImagePreloader;
  /** Changes whenever the preloader has another picture. */
  preloaded: number;
  /** The picture to show (the URL's `t`); null: the day's latest. */
  moment?: string | null;
  /** The visitor moved to another picture; `current`: the latest of the newest day. */
  onMoment?: (name: string, current: boolean) => void;
  onEnlarge?: () => void;
  /** The camera is offline: its latest picture is not presented as the current one. */
  offline?: boolean;
}

function initialSelection(names: readonly string[], moment: string | null) {
  const start = initialTimelapse(names.length);
  const index = moment ? names.indexOf(moment) : -1;
  return index >= 0 ? { ...start, index } : start;
}

/** The picture at the slider's time; the latest one of the newest day is the current picture. */
export function TimeTravel({
  camera,
  day,
  days,
  images,
  dayLoading,
  onSelectDay,
  preloader,
  preloaded,
  moment = null,
  onMoment,
  onEnlarge,
  offline = false,
}: TimeTravelProps) {
  const names = images.map((image) => image.name);
  const [timelapse, dispatch] = useReducer(timelapseReducer, null, () => initialSelection(names, moment));
  const urlOf = (name: string) => imageUrl(camera, name);
  // Until the selection hears that the day has more pictures, it stays on the picture it named: one that
  // arrived late, older than it, must not move it to the picture before.
  const chosen = useRef<string | undefined>(undefined);
  const stale = names.length !== timelapse.count && chosen.current !== undefined;
  const kept = stale ? names.indexOf(chosen.current ?? '') : -1;
  const index = kept >= 0 ? kept : timelapse.index;
  const selected = names[index];
  chosen.current = selected;
  // What the viewer sees: the selection once it has loaded, meanwhile the picture before.
  const [shown, setShown] = useState(selected);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `index` is read when the day grows, not followed.
  useEffect(() => {
    if (images.length > timelapse.count) dispatch({ type: 'grow', count: images.length, keep: index });
  }, [images.length, timelapse.count]);

  const namesRef = useRef(names);
  namesRef.current = names;
  const aheadCount = timelapse.playing ? PRELOAD_AHEAD_PLAYING : PRELOAD_AHEAD;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the wish list changes with the selection and the day's length.
  useEffect(() => {
    const order = preloadOrder(namesRef.current.length, index, aheadCount, PRELOAD_BEHIND);
    preloader.want(order.map((i) => urlOf(namesRef.current[i] ?? '')));
  }, [preloader, camera, index, images.length, aheadCount]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `preloaded` changes when the selection may have loaded.
  useEffect(() => {
    if (selected && (shown === undefined || preloader.isSettled(imageUrl(camera, selected)))) setShown(selected);
  }, [selected, shown, preloaded, preloader, camera]);

  useEffect(() => {
    if (!timelapse.playing) return;
    const timer = setInterval(
      () =>
        dispatch({
          type: 'tick',
          isReady: (i) => preloader.isSettled(imageUrl(camera, namesRef.current[i] ?? '')),
        }),
      FRAME_MS,
    );
    return () => clearInterval(timer);
  }, [timelapse.playing, preloader, camera]);

  const latestOfNewestDay = day === days[0] && isAtLatest(timelapse);

  // The URL names another picture of this day (back, forward, the viewer's steps): show it.
  const selectedIndex = useRef(index);
  selectedIndex.current = index;
  useEffect(() => {
    const index = moment ? namesRef.current.indexOf(moment) : -1;
    // The URL following the selection (a playing timelapse) must not stop it.
    if (index >= 0 && index !== selectedIndex.current) dispatch({ type: 'select', index });
  }, [moment]);
  // Each picture the visitor moves to is told once; mounting tells nothing, so a link's moment stays.
  const told = useRef(selected);
  useEffect(() => {
    if (selected === undefined || selected === told.current) return;
    told.current = selected;
    onMoment?.(selected, latestOfNewestDay);
  }, [selected, latestOfNewestDay, onMoment]);
  const waiting = selected !== undefined && selected !== shown;
  const dayOptions = days.includes(day) ? days : [day, ...days];
  const image = useRef<HTMLImageElement>(null);
  const upscaled = useUpscaled(image, shown);
  const frame = useRef<HTMLDivElement>(null);
  const noteExpected = useNoteExpected(frame, useViewer());

  return (
    <section className="time-travel" aria-label="Bild und Zeitreise">
      <figure className="camera-view">
        <div className="camera-view__frame" aria-busy={waiting} ref={frame}>
          {shown ? (
            <img
              ref={image}
              className="camera-view__image"
              src={urlOf(shown)}
              alt={`Webcam ${camera}, Aufnahme vom ${formatImageTime(shown)} Uhr`}
              width={PREVIEW_SIZE.width}
              height={PREVIEW_SIZE.height}
              fetchPriority="high"
              onLoad={() => preloader.markSettled(urlOf(shown))}
            />
          ) : (
            <p className="camera-view__empty">Für diesen Tag gibt es keine Bilder.</p>
          )}
          {waiting && (
            <span className="camera-view__loading" aria-hidden="true">
              Lädt …
            </span>
          )}
          {shown && onEnlarge && (
            <button type="button" className="camera-view__enlarge" onClick={onEnlarge}>
              Vergrössern
            </button>
          )}
        </div>
        <figcaption>
          {shown ? (
            <>
              {latestOfNewestDay && !offline && <span className="camera-view__live">Aktuelles Bild</span>}
              Aufnahme vom {formatDay(day)}, {clockTimeOf(shown)} Uhr · <PictureAge imageName={shown} />
            </>
          ) : (
            formatDay(day)
          )}
        </figcaption>
        {/* Where a note may come, its room is kept from the first render: the note comes once the picture has
            loaded and grows once its level is known, and the controls below must not move (docs/decisions.md,
            "Nothing moves after the first paint"). */}
        <div
          className={
            noteExpected || upscaled !== null ? 'quality-note-room quality-note-room--kept' : 'quality-note-room'
          }
        >
          {shown && upscaled !== null && <QualityNote camera={camera} src={urlOf(shown)} naturalWidth={upscaled} />}
        </div>
      </figure>

      <div className="time-controls">
        <label className="time-controls__day">
          <span>Tag</span>
          <select value={day} disabled={dayLoading} onChange={(event) => onSelectDay(event.target.value)}>
            {dayOptions.map((option) => (
              <option key={option} value={option}>
                {formatDay(option, 'short')}
              </option>
            ))}
          </select>
        </label>
        <div className="time-controls__buttons">
          <button
            type="button"
            className="button-quiet"
            onClick={() => dispatch({ type: 'step', by: -1 })}
            disabled={index <= 0}
          >
            <span aria-hidden="true">◀ </span>Früher
          </button>
          <button
            type="button"
            onClick={() => dispatch({ type: timelapse.playing ? 'pause' : 'play' })}
            disabled={images.length < 2}
            aria-pressed={timelapse.playing}
          >
            {timelapse.playing ? (
              <>
                <span aria-hidden="true">❚❚ </span>Anhalten
              </>
            ) : (
              <>
                <span aria-hidden="true">▶ </span>Zeitraffer <span className="time-controls__verb">abspielen</span>
              </>
            )}
          </button>
          <button
            type="button"
            className="button-quiet"
            onClick={() => dispatch({ type: 'step', by: 1 })}
            disabled={isAtLatest(timelapse)}
          >
            Später<span aria-hidden="true"> ▶</span>
          </button>
        </div>
        <label className="time-controls__slider">
          <span className="visually-hidden">Aufnahmezeit</span>
          <input
            type="range"
            min={0}
            max={Math.max(images.length - 1, 0)}
            step={1}
            value={index}
            disabled={images.length < 2}
            aria-valuetext={selected ? `${clockTimeOf(selected)} Uhr` : 'keine Bilder'}
            onChange={(event) => dispatch({ type: 'select', index: Number(event.target.value) })}
          />
        </label>
        <p className="time-controls__range" aria-hidden="true">
          <span>{names[0] ? clockTimeOf(names[0]) : ''}</span>
          <span>{selected ? clockTimeOf(selected) : ''}</span>
          <span>{names.at(-1) ? clockTimeOf(names.at(-1) ?? '') : ''}</span>
        </p>
      </div>
    </section>
  );
}
