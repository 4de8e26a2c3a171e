import { PAGE_DATA_IDS } from '@lakecams/contracts';
import { ServerPageDataContext } from '@lakecams/ui-kit';
import { useCallback, useContext, useEffect, useRef, useState } from 'react';
import { useLiveImages, useLiveRemovals } from '../live/live-images.ts';
import {
  fetchListedCameras,
  forgetPageCameras,
  type ListedCamera,
  listedCamerasOf,
  pageCameras,
  withLiveImage,
} from './camera-list.ts';

export type ListedCameras =
  | { status: 'loading' }
  | { status: 'failed' }
  | { status: 'ready'; cameras: readonly ListedCamera[] };

/** The cameras without those of `removed`; the same array when none of them was listed. */
export function withoutCameras(
  cameras: readonly ListedCamera[],
  removed: ReadonlySet<number>,
): readonly ListedCamera[] {
  const kept = cameras.filter((camera) => !removed.has(camera.webcam.id));
  return kept.length === cameras.length ? cameras : kept;
}

/**
 * The listed cameras, kept current by live events: new images, and cameras an administrator deletes leave;
 * remount (a new `key`) to retry after a failure.
 */
export function useListedCameras(): ListedCameras {
  // The first list of a visit comes with the page's HTML: shown at once (rendered so on the server), then asked for
  // behind it, as a picture may have come between the page's HTML and the live events' connection.
  const server = useContext(ServerPageDataContext);
  const [cameras, setCameras] = useState<ListedCameras>(() => {
    const fromPage = server ? listedCamerasOf(server[PAGE_DATA_IDS.cameraList]) : pageCameras();
    return fromPage ? { status: 'ready', cameras: fromPage } : { status: 'loading' };
  });
  const fromPage = useRef(cameras.status === 'ready');
  const latest = useRef(cameras);
  latest.current = cameras;
  const mounted = useRef(new AbortController());
  // Deleted while this page is open: a list answered before the deletion must not bring them back.
  const removed = useRef(new Set<number>());

  const load = useCallback(() => {
    fetchListedCameras(mounted.current.signal).then(
      (list) => setCameras({ status: 'ready', cameras: withoutCameras(list, removed.current) }),
      (error: unknown) => {
        if (mounted.current.signal.aborted) return;
        console.error('Loading the camera list failed', error);
        // A failed refresh keeps what is shown.
        setCameras((current) => (current.status === 'ready' ? current : { status: 'failed' }));
      },
    );
  }, []);

  useEffect(() => {
    mounted.current = new AbortController();
    if (fromPage.current) forgetPageCameras();
    load();
    return () => mounted.current.abort();
  }, [load]);

  useLiveImages((image) => {
    const current = latest.current;
    if (current.status !== 'ready' || removed.current.has(image.webcamId)) return;
    const update = withLiveImage(current.cameras, image);
    // A camera's first image: it joins the list, with its webcam record.
    if (!update.known) load();
    else if (update.cameras !== current.cameras) setCameras({ status: 'ready', cameras: update.cameras });
  });

  useLiveRemovals(({ webcamId }) => {
    removed.current.add(webcamId);
    setCameras((current) => {
      if (current.status !== 'ready') return current;
      const kept = withoutCameras(current.cameras, removed.current);
      return kept === current.cameras ? current : { status: 'ready', cameras: kept };
    });
  });

  return cameras;
}
