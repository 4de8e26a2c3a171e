import { useCallback, useEffect, useRef, useState } from 'react';
import { useLiveImages } from '../live/live-images.ts';
import { fetchListedCameras, type ListedCamera, withLiveImage } from './camera-list.ts';

export type ListedCameras =
  | { status: 'loading' }
  | { status: 'failed' }
  | { status: 'ready'; cameras: readonly ListedCamera[] };

/** The listed cameras, kept current by live image events; remount (a new `key`) to retry after a failure. */
export function useListedCameras(): ListedCameras {
  const [cameras, setCameras] = useState<ListedCameras>({ status: 'loading' });
  const latest = useRef(cameras);
  latest.current = cameras;
  const mounted = useRef(new AbortController());

  const load = useCallback(() => {
    fetchListedCameras(mounted.current.signal).then(
      (list) => setCameras({ status: 'ready', cameras: list }),
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
    load();
    return () => mounted.current.abort();
  }, [load]);

  useLiveImages((image) => {
    const current = latest.current;
    if (current.status !== 'ready') return;
    const update = withLiveImage(current.cameras, image);
    // A camera's first image: it joins the list, with its webcam record.
    if (!update.known) load();
    else if (update.cameras !== current.cameras) setCameras({ status: 'ready', cameras: update.cameras });
  });

  return cameras;
}
