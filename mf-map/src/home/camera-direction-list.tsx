import { Link } from 'react-router';
import { cameraPath, hasPosition, type ListedCamera, viewerPath } from '../cameras/camera-list.ts';
import { directionLabel } from '../cameras/compass.ts';
import { clockTimeOf } from '../cameras/image-time.ts';
import { imageUrl } from '../api/picture-urls.ts';
import { DirectionArrow } from './direction-arrow.tsx';

/** The list tab: where each camera looks, its name and a link to it (docs/product.md §4.1). */
export function CameraDirectionList({ cameras }: { cameras: readonly ListedCamera[] }) {
  return (
    <ul className="direction-list">
      {cameras.map(({ webcam, latest }) => {
        const positioned = hasPosition(latest);
        return (
          <li key={webcam.id} className="direction-list__item">
            {positioned ? (
              <DirectionArrow direction={latest.direction} />
            ) : (
              <span className="direction-arrow direction-arrow--none" aria-hidden="true" />
            )}
            <img
              className="direction-list__thumb"
              src={imageUrl(webcam.name, latest.name)}
              alt=""
              width={96}
              height={54}
              loading="lazy"
              decoding="async"
            />
            <div className="direction-list__text">
              <Link to={cameraPath(webcam.name)} className="direction-list__name">
                {webcam.name}
              </Link>
              <span className="direction-list__meta">
                {positioned ? directionLabel(latest.direction) : 'Ohne Standort'} · Bild von {clockTimeOf(latest.name)}{' '}
                Uhr ·{' '}
                <Link to={viewerPath(webcam.name)} aria-label={`${webcam.name} vergrössern`}>
                  Vergrössern
                </Link>
              </span>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
