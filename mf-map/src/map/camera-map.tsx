import type { PathOptions } from 'leaflet';
import 'leaflet/dist/leaflet.css';
import 'leaflet.markercluster/dist/MarkerCluster.css';
import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import { MapContainer, Polygon, TileLayer, Tooltip, useMap } from 'react-leaflet';
import { useNavigate } from 'react-router';
import { cameraPath, type ListedCamera, positionedCameras } from '../cameras/camera-list.ts';
import { directionLabel } from '../cameras/compass.ts';
import { clockTimeOf } from '../cameras/image-time.ts';
import { imageUrl } from '../cameras/image-urls.ts';
import { ClusteredMarkers } from './clustered-markers.tsx';
import { MAP_VIEW, type MapTiles } from './map-settings.ts';
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
}

/** The satellite map of the home page (a lazily loaded chunk: Leaflet and clustering weigh more than the rest of mf-map). */
export default function CameraMap({ cameras, tiles }: CameraMapProps) {
  const navigate = useNavigate();
  const [highlighted, setHighlighted] = useState<number | null>(null);
  const positioned = useMemo(() => positionedCameras(cameras), [cameras]);
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
      <TileLayer url={tiles.url} attribution={tiles.attribution} />
      <ResizeAfterMount />
      {positioned.map((camera) => (
        <ViewCone
          key={camera.webcam.id}
          camera={camera}
          highlighted={highlighted === camera.webcam.id}
          onHighlight={setHighlighted}
          onOpen={open}
        />
      ))}
      <ClusteredMarkers cameras={positioned} onOpen={open} onHighlight={setHighlighted} />
    </MapContainer>
  );
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
