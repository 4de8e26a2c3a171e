import type { Webcam } from '@lakecams/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLiveImages, useLiveRemovals } from '../live/live-images.ts';
import {
  fetchImageHistory,
  fetchLatestHistory,
  fetchWebcam,
  historyWithImage,
  type ImageHistory,
} from './image-history.ts';

export type CameraState =
  | { status: 'loading' }
  | { status: 'missing' }
  /** An administrator deleted the camera while the page was open. */
  | { status: 'removed' }
  | { status: 'failed' }
  | { status: 'ready'; webcam: Webcam | null; history: ImageHistory; dayLoading: boolean };

/** The camera page's data: camera record, the chosen day's images, kept current by live images. */
export function useCamera(name: string, attempt: number) {
  const [state, setState] = useState<CameraState>({ status: 'loading' });
  const dayRequest = useRef<AbortController | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt loads again.
  useEffect(() => {
    const abort = new AbortController();
    setState({ status: 'loading' });
    Promise.all([fetchLatestHistory(name, abort.signal), fetchWebcam(name, abort.signal).catch(() => null)]).then(
      ([history, webcam]) =>
        setState(history ? { status: 'ready', webcam, history, dayLoading: false } : { status: 'missing' }),
      (error: unknown) => {
        if (abort.signal.aborted) return;
        console.error(`Loading camera ${name} failed`, error);
        setState({ status: 'failed' });
      },
    );
    return () => {
      abort.abort();
      dayRequest.current?.abort();
    };
  }, [name, attempt]);

  const selectDay = useCallback(
    (day: string) => {
      dayRequest.current?.abort();
      const abort = new AbortController();
      dayRequest.current = abort;
      setState((current) => (current.status === 'ready' ? { ...current, dayLoading: true } : current));
      fetchImageHistory(name, day, abort.signal).then(
        (history) =>
          setState((current) =>
            current.status === 'ready' && history ? { ...current, history, dayLoading: false } : current,
          ),
        (error: unknown) => {
          if (abort.signal.aborted) return;
          console.error(`Loading ${day} of camera ${name} failed`, error);
          setState((current) => (current.status === 'ready' ? { ...current, dayLoading: false } : current));
        },
      );
    },
    [name],
  );

  useLiveImages((image) =>
    setState((current) => {
      if (current.status !== 'ready') return current;
      const webcamId = current.webcam?.id ?? current.history.images[0]?.webcamId;
      if (webcamId !== image.webcamId) return current;
      const history = historyWithImage(current.history, image);
      return history === current.history ? current : { ...current, history };
    }),
  );

  useLiveRemovals((removal) =>
    setState((current) => {
      if (current.status !== 'ready') return current;
      const webcamId = current.webcam?.id ?? current.history.images[0]?.webcamId;
      return webcamId === removal.webcamId || removal.camera === name ? { status: 'removed' } : current;
    }),
  );

  return { state, selectDay };
}
