import { Link } from 'react-router';
import { cameraPath, type ListedCamera, viewerPath } from './camera-list.ts';
import { formatImageTime } from './image-time.ts';
import { imageUrl } from '../api/picture-urls.ts';
import { cardPictureLoading, PREVIEW_SIZE } from './image-urls.ts';
import { PictureAge } from './picture-age.tsx';

/** A camera's current picture and name, linking to its page; beside it a link to the picture in the viewer. */
export function CameraCard({ camera: { webcam, latest }, index }: { camera: ListedCamera; index: number }) {
  return (
    <>
      <Link to={cameraPath(webcam.name)} className="camera-card">
        <img
          className="camera-card__image"
          src={imageUrl(webcam.name, latest.name)}
          alt={`Aktuelles Bild der Webcam ${webcam.name}`}
          width={PREVIEW_SIZE.width}
          height={PREVIEW_SIZE.height}
          {...cardPictureLoading(index)}
          decoding="async"
        />
        <span className="camera-card__name">{webcam.name}</span>
        <span className="camera-card__time">
          {formatImageTime(latest.name)} Uhr · <PictureAge imageName={latest.name} />
        </span>
      </Link>
      <Link to={viewerPath(webcam.name)} className="camera-card__enlarge" aria-label={`${webcam.name} vergrössern`}>
        Vergrössern
      </Link>
    </>
  );
}
