import { PAGE_DATA_IDS } from '@lakecams/contracts';
import { usePageData } from '@lakecams/ui-kit';
import { Component, lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { ListedCamera } from '../cameras/camera-list.ts';
import { loadMapTiles, type MapTiles, mapTilesOf } from './map-settings.ts';
import { StaticMap } from './static-map.tsx';
import { useVisitorTurned } from './visitor-presence.ts';
// With the panel, not with the map's lazy chunk: the panel's box has its height from home's first render on, so the
// offers below it do not move when Leaflet arrives.
import './camera-map.css';

const loadCameraMap = () => import(/* webpackChunkName: "camera-map" */ './camera-map.tsx');
const CameraMap = lazy(loadCameraMap);

type TilesState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; tiles: MapTiles };

function useMapTiles(attempt: number): TilesState {
  const [state, setState] = useState<TilesState>({ status: 'loading' });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt loads again.
  useEffect(() => {
    let active = true;
    setState({ status: 'loading' });
    // Fetch the map code alongside the settings rather than after them.
    loadCameraMap().catch(() => {});
    loadMapTiles().then(
      (tiles) => active && setState({ status: 'ready', tiles }),
      (error: unknown) => {
        console.error('Loading the map settings failed', error);
        if (active) setState({ status: 'failed' });
      },
    );
    return () => {
      active = false;
    };
  }, [attempt]);
  return state;
}

/**
 * The map tab's content: a fixed-size box, so nothing moves while Leaflet arrives; a tiles notice adds a strip on
 * top. With the tile settings in the page, its first paint is the static map (server-rendered too), until the live
 * map is wanted and loaded.
 */
export function MapPanel({ cameras }: { cameras: readonly ListedCamera[] }) {
  const pageTiles = mapTilesOf(usePageData(PAGE_DATA_IDS.pageConfig));
  const live = useVisitorTurned();
  if (pageTiles && !live) {
    return (
      <div className="camera-map">
        <StaticMap cameras={cameras} tiles={pageTiles} />
      </div>
    );
  }
  return <LiveMapPanel cameras={cameras} firstPaint={pageTiles} />;
}

function LiveMapPanel({ cameras, firstPaint }: { cameras: readonly ListedCamera[]; firstPaint: MapTiles | null }) {
  const [attempt, setAttempt] = useState(0);
  const tiles = useMapTiles(attempt);
  const [unavailableOn, setUnavailableOn] = useState<number | null>(null);
  const retry = () => setAttempt((n) => n + 1);
  return (
    <div className="camera-map">
      {unavailableOn === attempt && <TilesUnavailable />}
      {tiles.status === 'failed' ? (
        <MapFailure onRetry={retry} />
      ) : tiles.status === 'loading' ? (
        firstPaint ? (
          <StaticMap cameras={cameras} tiles={firstPaint} />
        ) : (
          <MapLoading />
        )
      ) : (
        <MapErrorBoundary key={attempt} onRetry={retry}>
          <Suspense fallback={firstPaint ? <StaticMap cameras={cameras} tiles={firstPaint} /> : <MapLoading />}>
            <CameraMap cameras={cameras} tiles={tiles.tiles} onTilesUnavailable={() => setUnavailableOn(attempt)} />
          </Suspense>
        </MapErrorBoundary>
      )}
    </div>
  );
}

function MapLoading() {
  return (
    <p className="camera-map__note" role="status">
      Karte wird geladen …
    </p>
  );
}

function ToTheList() {
  return (
    <Link to="?ansicht=liste" replace preventScrollReset>
      Zur Liste der Webcams
    </Link>
  );
}

/**
 * A strip on top of the map, which keeps its size and view below it, its markers still working: the satellite
 * tiles did not load (server down, blocked, offline; docs/product.md §4.2).
 */
function TilesUnavailable() {
  return (
    <div className="camera-map__unavailable" role="alert">
      <p>
        <strong>Karte nicht verfügbar.</strong> Die Kartenbilder konnten nicht geladen werden. <ToTheList />
      </p>
    </div>
  );
}

function MapFailure({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="camera-map__note" role="alert">
      <p>
        <strong>Karte nicht verfügbar.</strong> Die Liste zeigt alle Webcams.
      </p>
      <p>
        <ToTheList />
      </p>
      <button type="button" onClick={onRetry}>
        Erneut versuchen
      </button>
    </div>
  );
}

/** A failed chunk download shows here, not as a broken home page. */
class MapErrorBoundary extends Component<{ children: ReactNode; onRetry: () => void }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error('The map failed', error);
  }

  override render() {
    return this.state.failed ? <MapFailure onRetry={this.props.onRetry} /> : this.props.children;
  }
}
