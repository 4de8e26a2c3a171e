import { type ListedCamera, positionedCameras } from '../cameras/camera-list.ts';
import { cameraPath } from '../cameras/camera-list.ts';
import { MAP_VIEW, type MapTiles } from './map-settings.ts';
import { viewCone } from './view-cone.ts';
import { type Point, TILE_SIZE, tileUrl, worldPixel } from './web-mercator.ts';

/** How far from the map's centre the first paint draws: the widest map box, and its greatest height (camera-map.css). */
const REACH = { x: 640, y: 320 } as const;
/** Tiles this far from the centre are beyond a phone's box: loaded only where the box shows them. */
const NEAR = { x: 256, y: 256 } as const;

interface Cluster {
  at: Point;
  cameras: ListedCamera[];
}

/** Markers within the cluster radius of a first one drawn as one, as the clustering on the live map mostly does. */
function clusters(points: { camera: ListedCamera; at: Point }[]): Cluster[] {
  const found: Cluster[] = [];
  for (const { camera, at } of points) {
    const near = found.find((c) => Math.hypot(c.at.x - at.x, c.at.y - at.y) <= MAP_VIEW.clusterRadius);
    if (near) near.cameras.push(camera);
    else found.push({ at, cameras: [camera] });
  }
  return found;
}

/** A length from the map's centre, as CSS. */
const fromCentre = (offset: number) => `calc(50% + ${Math.round(offset)}px)`;

/**
 * The map's first paint, the same on the server and in the browser: the satellite tiles around the centre at the
 * start zoom, each camera's view cone linking to its page, and the markers; the live map (Leaflet) takes its place
 * when the visitor turns to it (docs/decisions.md, "The map's first paint").
 */
export function StaticMap({ cameras, tiles }: { cameras: readonly ListedCamera[]; tiles: MapTiles }) {
  const { zoom } = MAP_VIEW;
  const centre = worldPixel(MAP_VIEW.center[0], MAP_VIEW.center[1], zoom);
  const relative = (lat: number, lng: number): Point => {
    const at = worldPixel(lat, lng, zoom);
    return { x: at.x - centre.x, y: at.y - centre.y };
  };

  const tileImages = [];
  const columns = [Math.floor((centre.x - REACH.x) / TILE_SIZE), Math.floor((centre.x + REACH.x) / TILE_SIZE)];
  const rows = [Math.floor((centre.y - REACH.y) / TILE_SIZE), Math.floor((centre.y + REACH.y) / TILE_SIZE)];
  for (let y = rows[0] as number; y <= (rows[1] as number); y++) {
    for (let x = columns[0] as number; x <= (columns[1] as number); x++) {
      const left = x * TILE_SIZE - centre.x;
      const top = y * TILE_SIZE - centre.y;
      const near = left + TILE_SIZE > -NEAR.x && left < NEAR.x && top + TILE_SIZE > -NEAR.y && top < NEAR.y;
      // The tiles at the centre are in every box: they come before anything else the page asks for.
      const central =
        left + TILE_SIZE > -TILE_SIZE / 2 &&
        left < TILE_SIZE / 2 &&
        top + TILE_SIZE > -TILE_SIZE / 2 &&
        top < TILE_SIZE / 2;
      tileImages.push(
        <img
          key={`${x}/${y}`}
          className="static-map__tile"
          src={tileUrl(tiles.url, zoom, x, y)}
          alt=""
          width={TILE_SIZE}
          height={TILE_SIZE}
          loading={near ? 'eager' : 'lazy'}
          fetchPriority={central ? 'high' : 'auto'}
          decoding="async"
          style={{ left: fromCentre(left), top: fromCentre(top) }}
        />,
      );
    }
  }

  const positioned = positionedCameras(cameras).map((camera) => ({
    camera,
    at: relative(camera.latest.lat, camera.latest.lng),
  }));
  const box = { width: REACH.x * 2, height: REACH.y * 2 };
  const inBox = (p: Point) => `${Math.round(p.x + REACH.x)},${Math.round(p.y + REACH.y)}`;

  return (
    <div className="static-map">
      <div className="static-map__tiles">{tileImages}</div>
      <svg
        className="static-map__cones"
        width={box.width}
        height={box.height}
        viewBox={`0 0 ${box.width} ${box.height}`}
        style={{ left: fromCentre(-REACH.x), top: fromCentre(-REACH.y) }}
      >
        <title>Blickkegel der Webcams</title>
        {positioned.map(({ camera }) => {
          const { lat, lng, direction } = camera.latest;
          const cone = viewCone({ lat, lng, direction, angle: camera.webcam.angle, distance: camera.webcam.distance });
          return (
            <a key={camera.webcam.id} href={cameraPath(camera.webcam.name)} aria-label={`Webcam ${camera.webcam.name}`}>
              <polygon className="static-map__cone" points={cone.map(([a, b]) => inBox(relative(a, b))).join(' ')} />
            </a>
          );
        })}
      </svg>
      {clusters(positioned).map(({ at, cameras: members }) => {
        const size = members.length === 1 ? MAP_VIEW.markerSize : 34;
        const style = {
          left: fromCentre(at.x - size / 2),
          top: fromCentre(at.y - size / 2),
          width: size,
          height: size,
        };
        // Markers let clicks through to the cone below, which links the camera.
        return (
          <span
            key={members.map((m) => m.webcam.id).join('-')}
            className={`${members.length === 1 ? 'camera-marker' : 'camera-cluster'} static-map__marker`}
            style={style}
            aria-hidden="true"
          >
            {members.length === 1 ? null : members.length}
          </span>
        );
      })}
      {/* The provider's own credit, as the live map shows it (an operator's setting, HTML like Leaflet's). */}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the attribution is the operator's configuration, which Leaflet shows as HTML too. */}
      <p className="static-map__attribution" dangerouslySetInnerHTML={{ __html: tiles.attribution }} />
    </div>
  );
}
