import type OpenSeadragon from 'openseadragon';
import { useEffect, useRef, useState } from 'react';
import { NoteText, type PictureFacts, qualityNoteContent, useViewer } from '../camera/quality-note.tsx';
import { clockTimeOf, formatDay, isoDayOf } from '../cameras/image-time.ts';
import { QUALITY_LABELS } from '../pricing/prices.ts';
import { entitledPicture, maxZoomPixelRatio, viewerSource } from './viewer-source.ts';
import './picture-viewer.css';

export interface PictureViewerProps {
  camera: string;
  moment: string;
  /** The pictures before and after, when the day has them. */
  earlier: string | null;
  later: string | null;
  onMoment: (name: string) => void;
  onClose: () => void;
}

type Move = { zoom: number } | { pan: [number, number] };
const ZOOM_STEP = 1.5;
/** Keys as on the map and in other viewers: +/− zoom, arrows pan a tenth of the view. */
const KEYS: Readonly<Record<string, Move>> = {
  '+': { zoom: ZOOM_STEP },
  '=': { zoom: ZOOM_STEP },
  '-': { zoom: 1 / ZOOM_STEP },
  _: { zoom: 1 / ZOOM_STEP },
  ArrowLeft: { pan: [-0.1, 0] },
  ArrowRight: { pan: [0.1, 0] },
  ArrowUp: { pan: [0, -0.1] },
  ArrowDown: { pan: [0, 0.1] },
};

type ViewerState =
  | { status: 'loading' }
  | { status: 'failed' }
  | { status: 'ready'; facts: PictureFacts; width: number };

function moveBy(move: Move, opened: { library: typeof OpenSeadragon; viewer: OpenSeadragon.Viewer } | null) {
  const viewport = opened?.viewer.viewport;
  if (!opened || !viewport) return;
  if ('zoom' in move) viewport.zoomBy(move.zoom);
  else {
    const { width, height } = viewport.getBounds();
    viewport.panBy(new opened.library.Point(move.pan[0] * width, move.pan[1] * height));
  }
  viewport.applyConstraints();
}

/** The picture on the whole screen, zoomed and panned with wheel, pinch, double tap and keys (OpenSeadragon). */
export default function PictureViewer({ camera, moment, earlier, later, onMoment, onClose }: PictureViewerProps) {
  const stage = useRef<HTMLDivElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  // The page's callback changes with its URL; the keys and the focus stay bound once.
  const close = useRef(onClose);
  close.current = onClose;
  const viewer = useRef<{ library: typeof OpenSeadragon; viewer: OpenSeadragon.Viewer } | null>(null);
  const [state, setState] = useState<ViewerState>({ status: 'loading' });
  // Zoomed in as far as the picture has pixels: "+" rests and a line says how to get more.
  const [atLimit, setAtLimit] = useState(false);
  const viewerKind = useViewer();

  useEffect(() => {
    const abort = new AbortController();
    setState({ status: 'loading' });
    setAtLimit(false);
    const element = stage.current;
    Promise.all([
      import(/* webpackChunkName: "openseadragon" */ 'openseadragon'),
      entitledPicture(camera, moment, abort.signal),
    ]).then(
      ([{ default: OpenSeadragon }, picture]) => {
        if (abort.signal.aborted || !element) return;
        const screenPixels = element.clientWidth * window.devicePixelRatio;
        const source = viewerSource(camera, moment, picture, screenPixels);
        const opened = OpenSeadragon({
          element,
          tileSources: source.type === 'image' ? { type: 'image', url: source.url } : source.url,
          showNavigationControl: false,
          // The keys below act wherever the focus is in the viewer, not only on its canvas.
          keyboardNavEnabled: false,
          maxZoomPixelRatio: maxZoomPixelRatio(window.devicePixelRatio),
          visibilityRatio: 1,
          constrainDuringPan: true,
          gestureSettingsMouse: { clickToZoom: false, dblClickToZoom: true },
          gestureSettingsTouch: { dblClickToZoom: true, pinchToZoom: true },
        });
        viewer.current = { library: OpenSeadragon, viewer: opened };
        const judgeLimit = (zoom: number) => setAtLimit(zoom >= opened.viewport.getMaxZoom() * 0.999);
        opened.addHandler('open', () => {
          setState({
            status: 'ready',
            facts: { level: picture.quality, fullWidth: picture.fullWidth },
            width: picture.width,
          });
          judgeLimit(opened.viewport.getZoom());
        });
        opened.addHandler('open-failed', () => setState({ status: 'failed' }));
        // How far it is zoomed, for assistive checks and the browser test.
        opened.addHandler('zoom', ({ zoom }) => {
          element.dataset.zoom = zoom === undefined ? '' : zoom.toFixed(3);
          if (zoom !== undefined) judgeLimit(zoom);
        });
      },
      (error: unknown) => {
        if (abort.signal.aborted) return;
        console.error(`Opening picture ${moment} of ${camera} in the viewer failed`, error);
        setState({ status: 'failed' });
      },
    );
    return () => {
      abort.abort();
      viewer.current?.viewer.destroy();
      viewer.current = null;
    };
  }, [camera, moment]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close.current();
      const move = KEYS[event.key];
      if (!move || event.ctrlKey || event.metaKey || event.altKey) return;
      event.preventDefault();
      moveBy(move, viewer.current);
    };
    document.addEventListener('keydown', onKey);
    // Screen readers land in the viewer, and the focus leaves the button behind it.
    const before = document.activeElement as HTMLElement | null;
    dialog.current?.focus();
    const scrolling = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = scrolling;
      before?.focus?.();
    };
  }, []);

  return (
    <div
      className="picture-viewer"
      role="dialog"
      aria-modal="true"
      aria-label={`Webcam ${camera}, vergrössert`}
      ref={dialog}
      tabIndex={-1}
    >
      <div className="picture-viewer__stage" ref={stage} data-status={state.status} />
      {state.status === 'loading' && <p className="picture-viewer__status">Bild wird geladen …</p>}
      {state.status === 'failed' && (
        <p className="picture-viewer__status" role="alert">
          Das Bild konnte nicht geladen werden.
        </p>
      )}
      <div className="picture-viewer__bar">
        <p className="picture-viewer__caption">
          {camera}, {formatDay(isoDayOf(moment), 'short')}, {clockTimeOf(moment)} Uhr
          {state.status === 'ready' && state.facts.level && (
            <span className="picture-viewer__level"> · {QUALITY_LABELS[state.facts.level]}</span>
          )}
        </p>
        {state.status === 'ready' && atLimit && (
          <NoteText
            content={qualityNoteContent(state.facts, state.width, viewerKind, 'Weiter vergrössern geht nicht')}
            className="picture-viewer__limit"
          />
        )}
        <div className="picture-viewer__buttons">
          <button
            type="button"
            onClick={() => earlier && onMoment(earlier)}
            disabled={!earlier}
            aria-label="Früheres Bild"
          >
            ◀
          </button>
          <button type="button" onClick={() => later && onMoment(later)} disabled={!later} aria-label="Späteres Bild">
            ▶
          </button>
          <button
            type="button"
            onClick={() => moveBy({ zoom: ZOOM_STEP }, viewer.current)}
            disabled={atLimit}
            aria-label="Vergrössern"
          >
            +
          </button>
          <button
            type="button"
            onClick={() => moveBy({ zoom: 1 / ZOOM_STEP }, viewer.current)}
            aria-label="Verkleinern"
          >
            −
          </button>
          <button type="button" className="picture-viewer__close" onClick={onClose}>
            Schliessen
          </button>
        </div>
      </div>
    </div>
  );
}
