import type { CameraBestOf } from '@lakecams/contracts';
import { useSession } from '@lakecams/session';
import { PageFrame } from '@lakecams/ui-kit';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { BestOfPicker } from '../bestof/best-of-picker.tsx';
import { type BestOfDay, fetchBestOfDay, ISO_DAY, shiftDay } from '../bestof/best-of-api.ts';
import { cameraPath } from '../cameras/camera-list.ts';
import { clockTimeOf, formatDay } from '../cameras/image-time.ts';
import { imageUrl, PREVIEW_SIZE } from '../cameras/image-urls.ts';
import '../bestof/best-of.css';

type BestOfState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; result: BestOfDay };

/**
 * The best picture of every camera on a day (today by default, `?tag=YYYY-MM-DD` for another; docs/product.md §4.9).
 */
export function BestofPage() {
  const [params, setParams] = useSearchParams();
  const asked = params.get('tag');
  const day = asked && ISO_DAY.test(asked) ? asked : undefined;
  const [state, setState] = useState<BestOfState>({ status: 'loading' });
  const [version, setVersion] = useState(0);
  const { isAdmin } = useSession();

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new version loads the day again after a choice.
  useEffect(() => {
    const abort = new AbortController();
    setState((current) => (current.status === 'ready' && current.result.day === day ? current : { status: 'loading' }));
    fetchBestOfDay(day, abort.signal).then(
      (result) => setState({ status: 'ready', result }),
      () => {
        if (!abort.signal.aborted) setState({ status: 'failed' });
      },
    );
    return () => abort.abort();
  }, [day, version]);

  const showDay = (next: string, today: string) => setParams(next === today ? {} : { tag: next });

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
          <nav className="best-of-nav" aria-label="Tag wählen">
            <button
              type="button"
              className="button-quiet"
              onClick={() => showDay(shiftDay(state.result.day, -1), state.result.today)}
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
              disabled={state.result.day >= state.result.today}
              onClick={() => showDay(shiftDay(state.result.day, 1), state.result.today)}
            >
              Nächster Tag<span aria-hidden="true"> ▶</span>
            </button>
          </nav>
          {state.result.pictures.length === 0 ? (
            <p className="camera-view__empty">Für diesen Tag gibt es keine Bilder.</p>
          ) : (
            <ul className="camera-cards">
              {state.result.pictures.map((best) => (
                <li key={best.webcamId} className="best-of-card">
                  <BestOfCard best={best} />
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

function BestOfCard({ best }: { best: CameraBestOf }) {
  return (
    <Link to={`${cameraPath(best.camera)}?t=${best.name}`} className="camera-card">
      <img
        className="camera-card__image"
        src={imageUrl(best.camera, best.name)}
        alt={`Bestes Bild der Webcam ${best.camera}, ${clockTimeOf(best.name)} Uhr`}
        width={PREVIEW_SIZE.width}
        height={PREVIEW_SIZE.height}
        loading="lazy"
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
