import { type KeyboardEvent, type PointerEvent, useCallback, useEffect, useRef, useState } from 'react';
import { fetchImageHistory } from '../camera/image-history.ts';
import { type CompareLayout, momentRequest } from '../camera/moment-link.ts';
import { formatDay, formatImageTime, isoDayOf } from '../cameras/image-time.ts';
import { imageUrl } from '../api/picture-urls.ts';
import { PREVIEW_SIZE } from '../cameras/image-urls.ts';
import {
  DIVIDER_START,
  dividerAfterKey,
  MALFORMED_VERSUS_NOTE,
  missingDayNote,
  nearestByTimeOfDay,
  PRESETS,
  type PresetId,
  presetDay,
  takenAt,
  unknownVersusNote,
} from './compare-moments.ts';
import { MomentPicker } from './moment-picker.tsx';
import './compare.css';

export interface CompareViewProps {
  camera: string;
  /** Picture A: the moment the page shows. */
  moment: string;
  /** The URL's picture B (`vs`), not yet checked. */
  versus: string | null;
  layout: CompareLayout;
  onVersus: (name: string | null) => void;
  onLayout: (layout: CompareLayout) => void;
  onClose: () => void;
}

type Versus =
  | { kind: 'none' }
  | { kind: 'loading' }
  | { kind: 'picture'; name: string }
  /** A preset's day holds no picture. */
  | { kind: 'missing'; day: string }
  | { kind: 'failed'; day: string };

/** The names of a day's pictures, each day fetched once while the view is open. */
function useDayPictures(camera: string) {
  const cache = useRef(new Map<string, Promise<string[]>>());
  const abort = useRef<AbortController | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    abort.current = controller;
    return () => controller.abort();
  }, []);
  return useCallback(
    (day: string): Promise<string[]> => {
      const known = cache.current.get(day);
      if (known) return known;
      const loading = fetchImageHistory(camera, day, abort.current?.signal).then(
        (history) => history?.images.map((image) => image.name) ?? [],
      );
      cache.current.set(day, loading);
      // A failed day is asked for again next time.
      loading.catch(() => cache.current.delete(day));
      return loading;
    },
    [camera],
  );
}

/** Two moments of one camera, side by side or one over the other with a divider (code loaded only when opened). */
export default function CompareView({ camera, moment, versus, layout, onVersus, onLayout, onClose }: CompareViewProps) {
  const load = useDayPictures(camera);
  const [b, setB] = useState<Versus>({ kind: 'none' });
  const [note, setNote] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  /** How the visitor chose B; null: a link did, so the preset whose day B is on shows as chosen. */
  const [chosenBy, setChosenBy] = useState<PresetId | 'any' | null>(null);
  const title = useRef<HTMLHeadingElement>(null);
  /** Each choice gets a number; an answer for an older one is dropped. */
  const requests = useRef(0);
  const shownName = useRef<string | null>(null);
  shownName.current = b.kind === 'picture' ? b.name : null;
  const report = useRef(onVersus);
  report.current = onVersus;
  const day = isoDayOf(moment);

  // Screen readers land on the view that replaced the picture.
  useEffect(() => title.current?.focus(), []);

  // The URL's B (a link, a reload): shown when the camera has that picture, else dropped with a note.
  useEffect(() => {
    const request = momentRequest(versus);
    if (request.kind === 'current') {
      setB((current) => (current.kind === 'picture' || current.kind === 'loading' ? { kind: 'none' } : current));
      return;
    }
    if (request.kind === 'malformed') {
      setNote(MALFORMED_VERSUS_NOTE);
      report.current(null);
      return;
    }
    if (shownName.current === request.name) return;
    const ticket = ++requests.current;
    setB({ kind: 'loading' });
    load(request.day).then(
      (names) => {
        if (ticket !== requests.current) return;
        if (names.includes(request.name)) {
          setB({ kind: 'picture', name: request.name });
          return;
        }
        setNote(unknownVersusNote(request.name));
        setB({ kind: 'none' });
        report.current(null);
      },
      () => {
        if (ticket === requests.current) setB({ kind: 'failed', day: request.day });
      },
    );
  }, [versus, load]);

  /** B becomes the picture of `target` nearest to A's time of day, or the note that the day has none. */
  const chooseDay = useCallback(
    (target: string) => {
      const ticket = ++requests.current;
      setNote(null);
      setB({ kind: 'loading' });
      load(target).then(
        (names) => {
          if (ticket !== requests.current) return;
          const nearest = nearestByTimeOfDay(names, moment);
          setB(nearest ? { kind: 'picture', name: nearest } : { kind: 'missing', day: target });
          report.current(nearest);
        },
        () => {
          if (ticket === requests.current) setB({ kind: 'failed', day: target });
        },
      );
    },
    [load, moment],
  );

  const choosePicture = useCallback((name: string) => {
    requests.current++;
    setChosenBy('any');
    setNote(null);
    setB({ kind: 'picture', name });
    report.current(name);
  }, []);

  const bDay = b.kind === 'picture' ? isoDayOf(b.name) : b.kind === 'missing' ? b.day : null;

  return (
    <section className="compare" aria-labelledby="compare-title">
      <div className="compare__head">
        <h2 id="compare-title" ref={title} tabIndex={-1}>
          Vergleichen
        </h2>
        <button type="button" className="button-quiet" onClick={onClose}>
          Vergleich schliessen
        </button>
      </div>
      <div className="compare__controls">
        <fieldset className="compare__choice">
          <legend>Bild B</legend>
          <div className="compare__buttons">
            {PRESETS.map((preset) => (
              <button
                key={preset.id}
                type="button"
                className="button-quiet"
                aria-pressed={
                  chosenBy === null ? bDay === presetDay(day, preset.id) : chosenBy === preset.id && b.kind !== 'none'
                }
                onClick={() => {
                  setChosenBy(preset.id);
                  chooseDay(presetDay(day, preset.id));
                }}
              >
                {preset.label}
              </button>
            ))}
            <button
              type="button"
              className="button-quiet"
              aria-expanded={picking}
              aria-controls={picking ? 'compare-picker' : undefined}
              onClick={() => setPicking((open) => !open)}
            >
              Beliebiger Zeitpunkt
            </button>
          </div>
          {picking && (
            <MomentPicker
              camera={camera}
              moment={moment}
              chosen={b.kind === 'picture' ? b.name : null}
              load={load}
              onPick={choosePicture}
            />
          )}
        </fieldset>
        <fieldset className="compare__layout">
          <legend>Darstellung</legend>
          <div className="compare__buttons">
            {(
              [
                ['side', 'Nebeneinander'],
                ['swipe', 'Schieberegler'],
              ] as const
            ).map(([value, label]) => (
              <button
                key={value}
                type="button"
                className="button-quiet"
                aria-pressed={layout === value}
                onClick={() => onLayout(value)}
              >
                {label}
              </button>
            ))}
          </div>
        </fieldset>
      </div>
      {note && (
        <p className="status-note" role="status">
          {note}
        </p>
      )}
      {layout === 'swipe' && b.kind === 'picture' ? (
        <SwipeCompare camera={camera} a={moment} b={b.name} />
      ) : (
        <SideBySide camera={camera} a={moment} b={b} />
      )}
    </section>
  );
}

const altOf = (label: string, name: string) => `Bild ${label}, Aufnahme vom ${formatImageTime(name)} Uhr`;

function Caption({ label, name }: { label: 'A' | 'B'; name: string }) {
  return (
    <>
      <span className="compare__tag" aria-hidden="true">
        {label}
      </span>
      <span className="visually-hidden">Bild {label}: </span>
      {takenAt(name)}
    </>
  );
}

function SideBySide({ camera, a, b }: { camera: string; a: string; b: Versus }) {
  return (
    <div className="compare__pair">
      <figure className="compare__picture">
        <div className="compare__frame">
          <img
            className="compare__image"
            src={imageUrl(camera, a)}
            alt={altOf('A', a)}
            width={PREVIEW_SIZE.width}
            height={PREVIEW_SIZE.height}
          />
        </div>
        <figcaption>
          <Caption label="A" name={a} />
        </figcaption>
      </figure>
      <figure className="compare__picture">
        <div className="compare__frame" aria-busy={b.kind === 'loading'}>
          {b.kind === 'picture' ? (
            <img
              className="compare__image"
              src={imageUrl(camera, b.name)}
              alt={altOf('B', b.name)}
              width={PREVIEW_SIZE.width}
              height={PREVIEW_SIZE.height}
            />
          ) : (
            <p className="compare__empty" role={b.kind === 'missing' || b.kind === 'failed' ? 'status' : undefined}>
              {b.kind === 'loading' && 'Bild wird gesucht …'}
              {b.kind === 'none' && 'Wählen Sie oben einen Zeitpunkt für Bild B.'}
              {b.kind === 'missing' && missingDayNote(b.day)}
              {b.kind === 'failed' && `Die Bilder vom ${formatDay(b.day)} konnten nicht geladen werden.`}
            </p>
          )}
        </div>
        <figcaption>
          {b.kind === 'picture' ? (
            <Caption label="B" name={b.name} />
          ) : (
            <>
              <span className="compare__tag" aria-hidden="true">
                B
              </span>
              <span className="visually-hidden">Bild B: </span>
              {b.kind === 'missing' || b.kind === 'failed' ? formatDay(b.day) : 'noch nicht gewählt'}
            </>
          )}
        </figcaption>
      </figure>
    </div>
  );
}

/** A and B exactly on top of each other; B shows right of a divider the visitor drags, taps or moves with keys. */
function SwipeCompare({ camera, a, b }: { camera: string; a: string; b: string }) {
  const [position, setPosition] = useState(DIVIDER_START);
  const [ratio, setRatio] = useState(`${PREVIEW_SIZE.width} / ${PREVIEW_SIZE.height}`);
  const stage = useRef<HTMLDivElement>(null);
  const divider = useRef<HTMLDivElement>(null);
  /** Where a drag started, to put the divider back when the browser takes the gesture for a scroll. */
  const dragStart = useRef<number | null>(null);

  const follow = (clientX: number) => {
    const box = stage.current?.getBoundingClientRect();
    if (!box || box.width === 0) return;
    setPosition(Math.min(100, Math.max(0, ((clientX - box.left) / box.width) * 100)));
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    dragStart.current = position;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    if (event.pointerType === 'mouse') {
      // No text selection or picture drag; the keys go on from here.
      event.preventDefault();
      divider.current?.focus();
    }
    follow(event.clientX);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (dragStart.current !== null) follow(event.clientX);
  };
  const endDrag = () => {
    dragStart.current = null;
  };
  const onPointerCancel = () => {
    if (dragStart.current !== null) setPosition(dragStart.current);
    dragStart.current = null;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = dividerAfterKey(position, event.key);
    if (next === null) return;
    event.preventDefault();
    setPosition(next);
  };
  const shown = Math.round(position);

  return (
    <figure className="compare__swipe-figure">
      {/* Above the picture, not on it: cameras burn their name and time into its corners. */}
      <div className="compare__swipe-tags" aria-hidden="true">
        <span className="compare__tag compare__tag--a">A</span>
        <span className="compare__tag compare__tag--b">B</span>
      </div>
      <div
        ref={stage}
        className="compare__swipe"
        style={{ aspectRatio: ratio }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={onPointerCancel}
      >
        <img
          className="compare__image"
          src={imageUrl(camera, a)}
          alt={altOf('A', a)}
          width={PREVIEW_SIZE.width}
          height={PREVIEW_SIZE.height}
          draggable={false}
          onLoad={(event) => {
            const { naturalWidth, naturalHeight } = event.currentTarget;
            if (naturalWidth > 0 && naturalHeight > 0) setRatio(`${naturalWidth} / ${naturalHeight}`);
          }}
        />
        <img
          className="compare__image compare__image--over"
          src={imageUrl(camera, b)}
          alt={altOf('B', b)}
          width={PREVIEW_SIZE.width}
          height={PREVIEW_SIZE.height}
          draggable={false}
          style={{ clipPath: `inset(0 0 0 ${position}%)` }}
        />
        <div
          ref={divider}
          className="compare__divider"
          style={{ left: `${position}%` }}
          role="slider"
          tabIndex={0}
          aria-label="Trennlinie zwischen Bild A und Bild B"
          aria-orientation="horizontal"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={shown}
          aria-valuetext={`${shown} % Bild A, ${100 - shown} % Bild B`}
          onKeyDown={onKeyDown}
        >
          <span className="compare__handle" aria-hidden="true">
            ◀▶
          </span>
        </div>
      </div>
      <figcaption className="compare__swipe-captions">
        <span>
          <Caption label="A" name={a} /> <span className="compare__side">(links)</span>
        </span>
        <span>
          <Caption label="B" name={b} /> <span className="compare__side">(rechts)</span>
        </span>
      </figcaption>
    </figure>
  );
}
