import { cameraKeywords, type Webcam } from '@lakecams/contracts';
import { PageFrame } from '@lakecams/ui-kit';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { compassLabel } from '../cameras/compass.ts';
import { PREVIEW_SIZE } from '../cameras/image-urls.ts';
import { useImagePreloader } from '../camera/image-preloader.ts';
import { DayTimelapse } from '../camera/day-timelapse.tsx';
import { TimeTravel } from '../camera/time-travel.tsx';
import { offlineText, useOfflineSince } from '../camera/camera-offline.ts';
import { useCamera } from '../camera/use-camera.ts';
import { useMetaKeywords } from '../camera/use-meta-keywords.ts';
import { ImageCalendar } from '../camera/image-calendar.tsx';
import { useMomentLink } from '../camera/use-moment-link.ts';
import '../compare/compare-entry.css';

const PictureViewer = lazy(() => import(/* webpackChunkName: "picture-viewer" */ '../viewer/picture-viewer.tsx'));
const CompareView = lazy(() => import(/* webpackChunkName: "compare-view" */ '../compare/compare-view.tsx'));

export function CameraPage() {
  const { name = '' } = useParams();
  // A new camera starts from scratch: its own history, preloads and timelapse.
  return <CameraView key={name} name={name} />;
}

function CameraView({ name }: { name: string }) {
  const [attempt, setAttempt] = useState(0);
  const { state, selectDay } = useCamera(name, attempt);
  const { preloader, version } = useImagePreloader();
  useMetaKeywords(cameraKeywords(name));
  // The gateway's first view of this page (its picture, before any script) gives way once the page has rendered.
  useEffect(() => {
    if (state.status !== 'loading') document.getElementById('first-view')?.remove();
  }, [state.status]);
  const history = state.status === 'ready' ? state.history : null;
  const loaded = useMemo(
    () => history && { day: history.day, days: history.days, names: history.images.map((image) => image.name) },
    [history],
  );
  const link = useMomentLink(loaded, state.status === 'ready' && state.dayLoading, selectDay);
  // Judged on the newest day only: an older day's last picture says nothing about now.
  const newestDay = history !== null && history.day === history.days[0];
  const newest = newestDay ? history.images.at(-1)?.name : undefined;
  const offlineSince = useOfflineSince(
    newest,
    state.status === 'ready' ? state.webcam?.intervalMin : undefined,
    newestDay ? history.frozenSince : null,
  );
  const viewed = link.moment ?? loaded?.names.at(-1);
  const viewedAt = viewed && loaded ? loaded.names.indexOf(viewed) : -1;
  const comparing = link.compare !== null;
  // Closing the compare view puts the focus back on the button that opened it.
  const compareButton = useRef<HTMLButtonElement>(null);
  const wasComparing = useRef(comparing);
  useEffect(() => {
    if (wasComparing.current && !comparing) compareButton.current?.focus();
    wasComparing.current = comparing;
  }, [comparing]);

  if (state.status === 'removed') {
    return (
      <PageFrame title={name}>
        <p className="status-note" role="status">
          Diese Webcam wurde soeben entfernt; ihre Bilder sind nicht mehr verfügbar.
        </p>
        <p>
          <Link to="/">Zur Startseite</Link> · <Link to="/webcams">Alle Webcams</Link>
        </p>
      </PageFrame>
    );
  }
  if (state.status === 'missing') {
    return (
      <PageFrame title="Webcam nicht gefunden">
        <p>Eine Webcam namens «{name}» gibt es hier nicht (mehr).</p>
        <p>
          <Link to="/">Zur Startseite</Link> · <Link to="/webcams">Alle Webcams</Link>
        </p>
      </PageFrame>
    );
  }
  return (
    <PageFrame title={name}>
      {state.status === 'loading' && <CameraViewPlaceholder />}
      {state.status === 'failed' && (
        <div className="status-note status-note--error" role="alert">
          <p>Die Bilder dieser Webcam konnten nicht geladen werden.</p>
          <button type="button" onClick={() => setAttempt((n) => n + 1)}>
            Erneut versuchen
          </button>
        </div>
      )}
      {link.note && (
        <p className="status-note" role="status">
          {link.note}
        </p>
      )}
      {state.status === 'ready' && link.compare !== null && (
        // A is the picture the URL names: wait until its day is loaded.
        <Suspense fallback={<CameraViewPlaceholder />}>
          {link.settled && viewed ? (
            <CompareView
              camera={name}
              moment={viewed}
              versus={link.versus}
              layout={link.compare}
              onVersus={link.setVersus}
              onLayout={link.setCompareLayout}
              onClose={link.closeCompare}
            />
          ) : (
            <CameraViewPlaceholder />
          )}
        </Suspense>
      )}
      {state.status === 'ready' && link.compare === null && (
        <>
          {offlineSince && (
            <p className="status-note camera-offline" role="status">
              {offlineText(offlineSince)}
            </p>
          )}
          <TimeTravel
            key={state.history.day}
            camera={name}
            day={state.history.day}
            days={state.history.days}
            images={state.history.images}
            dayLoading={state.dayLoading}
            onSelectDay={link.onSelectDay}
            preloader={preloader}
            preloaded={version}
            moment={link.pageMoment}
            onMoment={link.onPageMoment}
            onEnlarge={link.openViewer}
            offline={offlineSince !== null}
          />
          {link.settled && viewed && (
            <p className="camera-compare">
              <button
                ref={compareButton}
                type="button"
                className="button-quiet"
                onClick={() => link.openCompare(viewed)}
              >
                Vergleichen
              </button>
              <span className="camera-compare__hint">Dieses Bild neben ein früheres oder beliebiges stellen.</span>
            </p>
          )}
          {link.viewerOpen && loaded && viewed && (
            <Suspense fallback={null}>
              <PictureViewer
                camera={name}
                moment={viewed}
                earlier={loaded.names[viewedAt - 1] ?? null}
                later={loaded.names[viewedAt + 1] ?? null}
                onMoment={(moment) =>
                  link.onMoment(moment, moment === loaded.names.at(-1) && loaded.day === loaded.days[0])
                }
                onClose={link.closeViewer}
              />
            </Suspense>
          )}
          {state.history.images.length > 0 && (
            <DayTimelapse
              camera={name}
              day={state.history.day}
              pictures={state.history.images.length}
              today={state.history.day === state.history.days[0]}
            />
          )}
          <ImageCalendar camera={name} day={state.history.day} onSelectDay={selectDay} />
        </>
      )}
      {state.status === 'ready' && state.webcam && (
        <CameraFacts webcam={state.webcam} direction={state.history.images.at(-1)?.direction} />
      )}
      <p className="camera-links">
        <Link to="/webcams">Alle Webcams</Link> · <Link to="/">Zur Karte</Link>
      </p>
    </PageFrame>
  );
}

/** The picture's box at its final size, so the page does not jump when the picture arrives. */
function CameraViewPlaceholder() {
  return (
    <div className="camera-view">
      <div
        className="camera-view__frame"
        style={{ aspectRatio: `${PREVIEW_SIZE.width} / ${PREVIEW_SIZE.height}` }}
        role="status"
      >
        <span className="camera-view__loading">Bild wird geladen …</span>
      </div>
    </div>
  );
}

function CameraFacts({ webcam, direction }: { webcam: Webcam; direction: number | undefined }) {
  return (
    <dl className="camera-facts">
      {direction !== undefined && (
        <div>
          <dt>Blickrichtung</dt>
          <dd>{compassLabel(direction)}</dd>
        </div>
      )}
      <div>
        <dt>Blickwinkel</dt>
        <dd>{webcam.angle}°</dd>
      </div>
      <div>
        <dt>Sichtweite</dt>
        <dd>{new Intl.NumberFormat('de-CH').format(webcam.distance)} km</dd>
      </div>
      <div>
        <dt>Neues Bild</dt>
        <dd>alle {webcam.intervalMin} Minuten</dd>
      </div>
    </dl>
  );
}
