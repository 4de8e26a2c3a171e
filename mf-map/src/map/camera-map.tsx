import type { PathOptions } from 'leaflet';
import 'leaflet/dist/leaflet.css';
import 'leaflet.markercluster/dist/MarkerCluster.css';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { MapContainer, Polygon, TileLayer, Tooltip, useMap } from 'react-leaflet';
import { useNavigate } from 'react-router';
import { cameraPath, type ListedCamera, positionedCameras } from '../cameras/camera-list.ts';
import { directionLabel } from '../cameras/compass.ts';
import { clockTimeOf } from '../cameras/image-time.ts';
import { imageUrl } from '../api/picture-urls.ts';
import { ClusteredMarkers } from './clustered-markers.tsx';
import { MAP_VIEW, type MapTiles } from './map-settings.ts';
import { CenterOnCameras, OffscreenCameras } from './offscreen-cameras.tsx';
import { type TileCounts, tilesUnavailable } from './tile-health.ts';
import { viewCone } from './view-cone.ts';
import './camera-map.css';

const CONE: PathOptions = { color: '#f2a900', weight: 1.5, opacity: 0.85, fillColor: '#ffc94d', fillOpacity: 0.2 };
const CONE_HIGHLIGHTED: PathOptions = {
  color: '#ffe08a',
  weight: 3,
  opacity: 1,
  fillColor: '#ffd166',
  fillOpacity: 0.55,
};

export interface CameraMapProps {
  cameras: readonly ListedCamera[];
  tiles: MapTiles;
  /** Called once when most tiles fail to load (tile server down or blocked). */
  onTilesUnavailable?: () => void;
}

/** Largest first, so a small cone drawn inside a large one stays on top and can be hit. */
const byConeArea = (a: ListedCamera, b: ListedCamera) =>
  b.webcam.angle * b.webcam.distance ** 2 - a.webcam.angle * a.webcam.distance ** 2;

/** The satellite map of the home page (a lazily loaded chunk: Leaflet and clustering weigh more than the rest of mf-map). */
export default function CameraMap({ cameras, tiles, onTilesUnavailable }: CameraMapProps) {
  const navigate = useNavigate();
  const [highlighted, setHighlighted] = useState<number | null>(null);
  const positioned = useMemo(() => positionedCameras(cameras), [cameras]);
  const cones = useMemo(() => [...positioned].sort(byConeArea), [positioned]);
  const tileEvents = useTileHealth(onTilesUnavailable);
  const open = useCallback((name: string) => navigate(cameraPath(name)), [navigate]);

  return (
    <MapContainer
      className="camera-map__leaflet"
      center={MAP_VIEW.center}
      zoom={MAP_VIEW.zoom}
      minZoom={MAP_VIEW.minZoom}
      maxZoom={MAP_VIEW.maxZoom}
      scrollWheelZoom={MAP_VIEW.scrollWheelZoom}
    >
      <TileLayer url={tiles.url} attribution={tiles.attribution} eventHandlers={tileEvents} />
      <ResizeAfterMount />
      {cones.map((camera) => (
        <ViewCone
          key={camera.webcam.id}
          camera={camera}
          highlighted={highlighted === camera.webcam.id}
          onHighlight={setHighlighted}
          onOpen={open}
        />
      ))}
      <ClusteredMarkers cameras={positioned} onOpen={open} onHighlight={setHighlighted} />
      <CenterOnCameras cameras={positioned} />
      <OffscreenCameras cameras={positioned} />
    </MapContainer>
  );
}

/** Counts the tiles Leaflet loads and fails to load, and tells once when the map has no usable background. */
function useTileHealth(onTilesUnavailable: (() => void) | undefined) {
  const report = useRef(onTilesUnavailable);
  report.current = onTilesUnavailable;
  return useMemo(() => {
    const counts: TileCounts = { loaded: 0, failed: 0 };
    let told = false;
    const judge = () => {
      if (told || !tilesUnavailable(counts)) return;
      told = true;
      report.current?.();
    };
    return {
      tileload: () => {
        counts.loaded += 1;
      },
      tileerror: () => {
        counts.failed += 1;
        judge();
      },
    };
  }, []);
}

/** The tab panel may still be settling its size when Leaflet measures it. */
function ResizeAfterMount() {
  const map = useMap();
  useEffect(() => {
    const timer = setTimeout(() => map.invalidateSize(), MAP_VIEW.resizeAfterMs);
    return () => clearTimeout(timer);
  }, [map]);
  return null;
}

interface ViewConeProps {
  camera: ListedCamera;
  highlighted: boolean;
  onHighlight: (update: (current: number | null) => number | null) => void;
  onOpen: (name: string) => void;
}

const ViewCone = memo(function ViewCone({ camera, highlighted, onHighlight, onOpen }: ViewConeProps) {
  const { webcam, latest } = camera;
  const positions = useMemo(
    () =>
      viewCone({
        lat: latest.lat,
        lng: latest.lng,
        direction: latest.direction,
        angle: webcam.angle,
        distance: webcam.distance,
      }),
    [latest.lat, latest.lng, latest.direction, webcam.angle, webcam.distance],
  );
  const eventHandlers = useMemo(
    () => ({
      mouseover: () => onHighlight(() => webcam.id),
      mouseout: () => onHighlight((current) => (current === webcam.id ? null : current)),
      click: () => onOpen(webcam.name),
    }),
    [webcam.id, webcam.name, onHighlight, onOpen],
  );
  return (
    <Polygon
      className="view-cone"
      positions={positions}
      pathOptions={highlighted ? CONE_HIGHLIGHTED : CONE}
      eventHandlers={eventHandlers}
    >
      <Tooltip sticky direction="top" offset={[0, -12]} className="camera-tooltip">
        <strong>{webcam.name}</strong>
        <img src={imageUrl(webcam.name, latest.name)} alt="" width={160} height={90} />
        <span>
          {clockTimeOf(latest.name)} · {directionLabel(latest.direction)}
        </span>
      </Tooltip>
    </Polygon>
  );
});
