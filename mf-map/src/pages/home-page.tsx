import { PageFrame } from '@lakecams/ui-kit';
import { ListedCamerasView, WithRetry } from '../cameras/camera-list-state.tsx';
import type { ListedCamera } from '../cameras/camera-list.ts';
import { useListedCameras } from '../cameras/use-listed-cameras.ts';
import { CameraDirectionList } from '../home/camera-direction-list.tsx';
import { HomeTabs } from '../home/home-tabs.tsx';
import { OfferCards } from '../home/offer-cards.tsx';
import { MapPanel } from '../map/map-panel.tsx';

const NO_CAMERAS: readonly ListedCamera[] = [];

export function HomePage() {
  return (
    <PageFrame title="Webcams am Zürichsee">
      <p className="lead">
        Aktuelle Bilder rund um den oberen Zürichsee. Tippen oder klicken Sie auf der Karte auf eine Kamera, um ihre
        Bilder zu sehen; die Blickkegel zeigen, wohin jede Kamera schaut.
      </p>
      <WithRetry>{(onRetry) => <CameraViews onRetry={onRetry} />}</WithRetry>
      <OfferCards />
    </PageFrame>
  );
}

/** The map does not wait for the camera list: tiles load meanwhile, cones and markers join when it arrives. */
function CameraViews({ onRetry }: { onRetry: () => void }) {
  const cameras = useListedCameras();
  const listed = cameras.status === 'ready' ? cameras.cameras : NO_CAMERAS;
  // The map has nothing to say when the list failed or is empty: the note says it under the map too.
  const problem = cameras.status === 'failed' || (cameras.status === 'ready' && listed.length === 0);
  const listView = (
    <ListedCamerasView cameras={cameras} onRetry={onRetry}>
      {(ready) => <CameraDirectionList cameras={ready} />}
    </ListedCamerasView>
  );
  return (
    <HomeTabs
      panels={{
        karte: (
          <>
            <MapPanel cameras={listed} />
            {problem && listView}
          </>
        ),
        liste: listView,
      }}
    />
  );
}
