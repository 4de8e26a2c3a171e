import { Fragment, type ReactNode, useState } from 'react';
import type { ListedCamera } from './camera-list.ts';
import { type ListedCameras, useListedCameras } from './use-listed-cameras.ts';

interface ListedCamerasViewProps {
  cameras: ListedCameras;
  onRetry: () => void;
  children: (cameras: readonly ListedCamera[]) => ReactNode;
}

/** Loading, failure (with retry) and "none yet" of the camera list; `children` renders the cameras. */
export function ListedCamerasView({ cameras, onRetry, children }: ListedCamerasViewProps) {
  if (cameras.status === 'loading') {
    return (
      <p className="status-note" role="status">
        Webcams werden geladen …
      </p>
    );
  }
  if (cameras.status === 'failed') {
    return (
      <div className="status-note status-note--error" role="alert">
        <p>Die Webcams konnten nicht geladen werden.</p>
        <button type="button" onClick={onRetry}>
          Erneut versuchen
        </button>
      </div>
    );
  }
  if (cameras.cameras.length === 0) {
    return <p className="status-note">Zurzeit liefert keine Webcam ein Bild.</p>;
  }
  return children(cameras.cameras);
}

/** Remounts its content for a retry, so the list loads afresh. */
export function WithRetry({ children }: { children: (onRetry: () => void) => ReactNode }) {
  const [attempt, setAttempt] = useState(0);
  return <Fragment key={attempt}>{children(() => setAttempt((n) => n + 1))}</Fragment>;
}

/** Loads the listed cameras and shows them through `children` once there are any. */
export function WithListedCameras({ children }: { children: (cameras: readonly ListedCamera[]) => ReactNode }) {
  return <WithRetry>{(onRetry) => <ListedCamerasLoader onRetry={onRetry}>{children}</ListedCamerasLoader>}</WithRetry>;
}

function ListedCamerasLoader({
  onRetry,
  children,
}: {
  onRetry: () => void;
  children: (cameras: readonly ListedCamera[]) => ReactNode;
}) {
  const cameras = useListedCameras();
  return (
    <ListedCamerasView cameras={cameras} onRetry={onRetry}>
      {children}
    </ListedCamerasView>
  );
}
