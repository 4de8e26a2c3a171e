import L from 'leaflet';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useMap } from 'react-leaflet';
import type { ListedCamera } from '../cameras/camera-list.ts';

export type Side = 'left' | 'right' | 'up' | 'down';
export type SideCounts = Record<Side, number>;

const ARROWS: Record<Side, { arrow: string; words: string }> = {
  left: { arrow: '◀', words: 'links' },
  right: { arrow: '▶', words: 'rechts' },
  up: { arrow: '▲', words: 'oben' },
  down: { arrow: '▼', words: 'unten' },
};

/** The edge a point outside a `width`×`height` view lies beyond; null inside the view. */
export function sideBeyond({ x, y }: { x: number; y: number }, width: number, height: number): Side | null {
  if (x < 0) return 'left';
  if (x > width) return 'right';
  if (y < 0) return 'up';
  if (y > height) return 'down';
  return null;
}

/** Points outside a `width`×`height` view, counted by the edge they lie beyond. */
export function countBeyondEdges(
  points: readonly { x: number; y: number }[],
  width: number,
  height: number,
): SideCounts {
  const counts: SideCounts = { left: 0, right: 0, up: 0, down: 0 };
  for (const point of points) {
    const side = sideBeyond(point, width, height);
    if (side) counts[side] += 1;
  }
  return counts;
}

/**
 * A phone shows a fraction of the lake at the smallest zoom allowed (13): arrows at the edges count the
 * cameras beyond them, and one tap brings them into view.
 */
export function OffscreenCameras({ cameras }: { cameras: readonly ListedCamera[] }) {
  const map = useMap();
  const [counts, setCounts] = useState<SideCounts>({ left: 0, right: 0, up: 0, down: 0 });
  const recount = useCallback(() => {
    const size = map.getSize();
    const points = cameras.map(({ latest }) => map.latLngToContainerPoint([latest.lat, latest.lng]));
    setCounts(countBeyondEdges(points, size.x, size.y));
  }, [map, cameras]);
  useEffect(() => {
    recount();
    map.on('moveend zoomend resize', recount);
    return () => {
      map.off('moveend zoomend resize', recount);
    };
  }, [map, recount]);
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (bar.current) L.DomEvent.disableClickPropagation(bar.current);
  }, []);
  // The cameras beyond that edge come into view together (at the same zoom) when they fit on one screen.
  const move = (side: Side) => {
    const { x, y } = map.getSize();
    const beyond = cameras
      .map(({ latest }) => L.latLng(latest.lat, latest.lng))
      .filter((position) => sideBeyond(map.latLngToContainerPoint(position), x, y) === side);
    if (beyond.length > 0) map.panTo(L.latLngBounds(beyond).getCenter());
  };
  return (
    <div ref={bar}>
      {(Object.keys(ARROWS) as Side[]).map((side) =>
        counts[side] > 0 ? (
          <button
            key={side}
            type="button"
            className={`offscreen-cameras offscreen-cameras--${side}`}
            aria-label={`${counts[side]} ${counts[side] === 1 ? 'Kamera' : 'Kameras'} ${ARROWS[side].words}: Karte verschieben`}
            onClick={() => move(side)}
          >
            <span aria-hidden="true">
              {ARROWS[side].arrow} {counts[side]}
            </span>
          </button>
        ) : null,
      )}
    </div>
  );
}

/** At mount, when the default view leaves cameras out (a phone), centre on the cameras at the same zoom. */
export function CenterOnCameras({ cameras }: { cameras: readonly ListedCamera[] }) {
  const map = useMap();
  const centred = useRef(false);
  useEffect(() => {
    if (centred.current || cameras.length === 0) return;
    centred.current = true;
    const bounds = L.latLngBounds(cameras.map(({ latest }) => [latest.lat, latest.lng] as [number, number]));
    if (!map.getBounds().contains(bounds)) map.setView(bounds.getCenter(), map.getZoom(), { animate: false });
  }, [map, cameras]);
  return null;
}
