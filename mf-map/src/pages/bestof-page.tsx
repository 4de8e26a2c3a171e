import { bestOfDayCall, bestOfDayOf, type CameraBestOf } from '@lakecams/contracts';
import { useSession } from '@lakecams/session';
import { PageFrame, usePageAnswer } from '@lakecams/ui-kit';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { type BestOfDay, fetchBestOfDay, shiftDay } from '../bestof/best-of-api.ts';
import { createArchiveDays, type DayNeighbours, nearestDay } from '../bestof/best-of-days.ts';
import { BestOfPicker } from '../bestof/best-of-picker.tsx';
import { cameraPath } from '../cameras/camera-list.ts';
import { clockTimeOf, formatDay } from '../cameras/image-time.ts';
import { imageUrl } from '../api/picture-urls.ts';
import { cardPictureLoading, PREVIEW_SIZE } from '../cameras/image-urls.ts';
import '../bestof/best-of.css';

type BestOfState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; result: BestOfDay };
/** The days with pictures around `day`; `found` null when they could not be looked up. */
type Around = { day: string; found: DayNeighbours | null };

const dayPath = (day: string, today: string) =>
  day === today ? '/bestof' : `/bestof?${new URLSearchParams({ tag: day })}`;

/**
 * The best picture of every camera on a day (today by default, `?tag=YYYY-MM-DD` for another; docs/product.md §4.9).
 */
export function BestofPage() {
  const [params, setParams] = useSearchParams();
  const day = bestOfDayOf(params);
  // The day's pictures come with the page (rendered so on the server), and are asked for again behind them.
  const fromPage = usePageAnswer<BestOfDay>(bestOfDayCall(day));
  const [state, setState] = useState<BestOfState>(() =>
    fromPage ? { status: 'ready', result: fromPage } : { status: 'loading' },
  );
  const [version, setVersion] = useState(0);
  const { isAdmin } = useSession();
  const [archiveDays] = useState(createArchiveDays);
  const [around, setAround] = useState<Around | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new version loads the day again after a choice.
  useEffect(() => {
    const abort = new AbortController();
    // The day shown stays while it is asked again (today's when none was asked for).
    setState((current) =>
      current.status === 'ready' && current.result.day === (day ?? current.result.today)
        ? current
        : { status: 'loading' },
    );
    fetchBestOfDay(day, abort.signal).then(
      (result) => setState({ status: 'ready', result }),
      () => {
        if (!abort.signal.aborted) setState({ status: 'failed' });
      },
    );
    return () => abort.abort();
  }, [day, version]);

  const shownDay = state.status === 'ready' ? state.result.day : null;
  useEffect(() => {
    if (!shownDay) return;
    let current = true;
    archiveDays(shownDay).then(
      (found) => current && setAround({ day: shownDay, found }),
      () => current && setAround({ day: shownDay, found: null }),
    );
    return () => {
      current = false;
    };
  }, [shownDay, archiveDays]);

  const showDay = (next: string, today: string) => setParams(next === today ? {} : { tag: next });

  // The buttons step to the nearest day with pictures; they wait until it is known, and step by calendar days
  // should the look-up fail.
  const known = around && around.day === shownDay ? around : null;
  const steps = (result: BestOfDay) => {
    if (!known) return { previous: null, next: null };
    if (!known.found) {
      return { previous: shiftDay(result.day, -1), next: result.day < result.today ? shiftDay(result.day, 1) : null };
    }
    const { previous, next } = known.found;
    return { previous, next: next && next <= result.today ? next : null };
  };

  return (
    <PageFrame title="Bilder des Tages">
      {state.status === 'loading' && <p role="status">Bilder werden geladen …</p>}
      {state.status === 'failed' && (
        <div className="status-note status-note--error" role="alert">
          <p>Die Bilder des Tages konnten nicht geladen werden.</p>
          <button type="button" onClick={() => setVersion((n) => n + 1)}>
            Erneut versuchen
          </button>
        </div>
      )}
      {state.status === 'ready' && (
        <>
          <nav className="best-of-nav" aria-label="Tag wählen" aria-busy={!known}>
            <button
              type="button"
              className="button-quiet"
              disabled={!steps(state.result).previous}
              onClick={() => {
                const { previous } = steps(state.result);
                if (previous) showDay(previous, state.result.today);
              }}
            >
              <span aria-hidden="true">◀ </span>Vorheriger Tag
            </button>
            <p className="best-of-nav__day" aria-live="polite">
              {state.result.day === state.result.today ? 'Heute, ' : ''}
              {formatDay(state.result.day)}
            </p>
            <button
              type="button"
              className="button-quiet"
              disabled={!steps(state.result).next}
              onClick={() => {
                const { next } = steps(state.result);
                if (next) showDay(next, state.result.today);
              }}
            >
              Nächster Tag<span aria-hidden="true"> ▶</span>
            </button>
          </nav>
          {state.result.pictures.length === 0 ? (
            <EmptyDay result={state.result} found={known?.found ?? null} />
          ) : (
            <ul className="camera-cards">
              {state.result.pictures.map((best, index) => (
                <li key={best.webcamId} className="best-of-card">
                  <BestOfCard best={best} index={index} />
                  {isAdmin && (
                    <BestOfPicker best={best} day={state.result.day} onChosen={() => setVersion((n) => n + 1)} />
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </PageFrame>
  );
}

/** A day without pictures: where the archive begins or ends when the day lies outside it, and the nearest day with pictures. */
function EmptyDay({ result, found }: { result: BestOfDay; found: DayNeighbours | null }) {
  const { day, today } = result;
  const nearest = found && nearestDay(found, day);
  return (
    <div className="best-of-empty">
      <p>{day === today ? 'Für heute gibt es noch keine Bilder.' : 'Für diesen Tag gibt es keine Bilder.'}</p>
      {found?.first && day < found.first && <p>Das Archiv beginnt am {formatDay(found.first)}.</p>}
      {found?.last && day > found.last && day !== today && <p>Die neusten Bilder sind vom {formatDay(found.last)}.</p>}
      {nearest && (
        <p>
          <Link to={dayPath(nearest, today)}>Bilder vom {formatDay(nearest)} ansehen</Link>
        </p>
      )}
    </div>
  );
}

function BestOfCard({ best, index }: { best: CameraBestOf; index: number }) {
  return (
    <Link to={`${cameraPath(best.camera)}?t=${best.name}`} className="camera-card">
      <img
        className="camera-card__image"
        src={imageUrl(best.camera, best.name)}
        alt={`Bestes Bild der Webcam ${best.camera}, ${clockTimeOf(best.name)} Uhr`}
        width={PREVIEW_SIZE.width}
        height={PREVIEW_SIZE.height}
        {...cardPictureLoading(index)}
        decoding="async"
      />
      <span className="camera-card__name">{best.camera}</span>
      <span className="camera-card__time">
        <span>{clockTimeOf(best.name)} Uhr</span>
        <span className="best-of-card__by">
          {best.chosenBy === 'admin'
            ? 'von der Redaktion gewählt'
            : best.score !== null
              ? `Bewertung ${Math.round(best.score)} / 100`
              : ''}
        </span>
      </span>
    </Link>
  );
}
