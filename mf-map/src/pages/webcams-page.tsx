import { PageFrame } from '@lakecams/ui-kit';
import { CameraCard } from '../cameras/camera-card.tsx';
import { WithListedCameras } from '../cameras/camera-list-state.tsx';

export function WebcamsPage() {
  return (
    <PageFrame title="Alle Webcams">
      <WithListedCameras>
        {(cameras) => (
          <ul className="camera-cards">
            {cameras.map((camera, index) => (
              <li key={camera.webcam.id}>
                <CameraCard camera={camera} index={index} />
              </li>
            ))}
          </ul>
        )}
      </WithListedCameras>
    </PageFrame>
  );
}
