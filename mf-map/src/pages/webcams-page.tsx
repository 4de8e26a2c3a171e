import { PageFrame } from '@lakecams/ui-kit';
import { CameraCard } from '../cameras/camera-card.tsx';
import { WithListedCameras } from '../cameras/camera-list-state.tsx';

export function WebcamsPage() {
  return (
    <PageFrame title="Alle Webcams">
      <WithListedCameras>
        {(cameras) => (
          <ul className="camera-cards">
            {cameras.map((camera) => (
              <li key={camera.webcam.id}>
                <CameraCard camera={camera} />
              </li>
            ))}
          </ul>
        )}
      </WithListedCameras>
    </PageFrame>
  );
}
