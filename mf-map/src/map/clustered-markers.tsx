import L from 'leaflet';
import 'leaflet.markercluster';
import { useEffect, useMemo, useRef } from 'react';
import { useMap } from 'react-leaflet';
import type { ListedCamera } from '../cameras/camera-list.ts';
import { MAP_VIEW } from './map-settings.ts';

interface ClusteredMarkersProps {
  /** Cameras with a position. */
  cameras: readonly ListedCamera[];
  onOpen: (name: string) => void;
  onHighlight: (webcamId: number | null) => void;
}

const markerIcon = L.divIcon({
  className: 'camera-marker',
  iconSize: [MAP_VIEW.markerSize, MAP_VIEW.markerSize],
});

/** Clusters get our colours and a name screen readers can say (Leaflet makes them buttons). */
function clusterIcon(cluster: L.MarkerCluster): L.DivIcon {
  const count = cluster.getChildCount();
  return L.divIcon({
    className: 'camera-cluster',
    html: `<span aria-hidden="true">${count}</span><span class="visually-hidden">${count} Kameras, zum Anzeigen wählen</span>`,
    iconSize: [36, 36],
  });
}

/** Phones and tablets: a finger cannot aim at one of several cones, and zooming into a cluster may take several taps. */
const isTouchScreen = () => typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;

/** Camera markers in a marker-cluster group; they change only when a camera moves, not with every new picture. */
export function ClusteredMarkers({ cameras, onOpen, onHighlight }: ClusteredMarkersProps) {
  const map = useMap();
  const handlers = useRef({ onOpen, onHighlight });
  handlers.current = { onOpen, onHighlight };

  const group = useMemo(() => {
    const touch = isTouchScreen();
    const clusters = L.markerClusterGroup({
      maxClusterRadius: MAP_VIEW.clusterRadius,
      showCoverageOnHover: false,
      // On a touch screen one tap spreads a cluster's cameras out, whatever the zoom: each is then one tap away.
      zoomToBoundsOnClick: !touch,
      iconCreateFunction: clusterIcon,
    });
    if (touch)
      clusters.on('clusterclick', (event) => (event as L.LeafletEvent & { layer: L.MarkerCluster }).layer.spiderfy());
    return clusters;
  }, []);

  useEffect(() => {
    map.addLayer(group);
    return () => {
      map.removeLayer(group);
    };
  }, [map, group]);

  const placement = cameras
    .map(({ webcam, latest }) => `${webcam.id}:${webcam.name}:${latest.lat}:${latest.lng}`)
    .join('|');
  const current = useRef(cameras);
  current.current = cameras;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `placement` is the part of `cameras` markers depend on.
  useEffect(() => {
    const markers = current.current.map(({ webcam, latest }) =>
      L.marker([latest.lat, latest.lng], { icon: markerIcon, title: webcam.name, alt: webcam.name, riseOnHover: true })
        .on('click', () => handlers.current.onOpen(webcam.name))
        .on('mouseover', () => handlers.current.onHighlight(webcam.id))
        .on('mouseout', () => handlers.current.onHighlight(null)),
    );
    group.addLayers(markers);
    return () => {
      group.removeLayers(markers);
    };
  }, [group, placement]);

  return null;
}
