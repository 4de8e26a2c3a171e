import { useEffect, useState } from 'react';

export type LoadImage = (url: string) => Promise<void>;

/** Fetches and decodes a picture off screen, so showing it later is instant. */
export const loadImageInBrowser: LoadImage = (url) => {
  const image = new Image();
  image.decoding = 'async';
  image.src = url;
  return image.decode();
};

/**
 * A few downloads at a time from a wish list that is replaced as the slider moves: what the viewer
 * looks at next is fetched first, and a fast drag never queues hundreds of requests.
 */
export function createImagePreloader(load: LoadImage, onSettled: (url: string) => void, concurrency = 3) {
  let wanted: string[] = [];
  const settled = new Set<string>();
  const inFlight = new Set<string>();
  let stopped = false;

  const pump = () => {
    while (!stopped && inFlight.size < concurrency && wanted.length > 0) {
      const url = wanted.shift() as string;
      if (settled.has(url) || inFlight.has(url)) continue;
      inFlight.add(url);
      // A failed picture counts as settled: the timelapse must not wait for it forever.
      Promise.resolve()
        .then(() => load(url))
        .catch(() => {})
        .finally(() => {
          inFlight.delete(url);
          settled.add(url);
          if (stopped) return;
          onSettled(url);
          pump();
        });
    }
  };

  return {
    want(urls: readonly string[]) {
      wanted = urls.filter((url) => !settled.has(url) && !inFlight.has(url));
      pump();
    },
    isSettled: (url: string) => settled.has(url),
    /** Marks a picture the page already shows. */
    markSettled(url: string) {
      settled.add(url);
    },
    stop() {
      stopped = true;
      wanted = [];
    },
  };
}

export type ImagePreloader = ReturnType<typeof createImagePreloader>;

/**
 * A preloader for the component's lifetime (created once: `load` is read on mount only);
 * `version` changes whenever a picture settles.
 */
export function useImagePreloader(load: LoadImage = loadImageInBrowser): {
  preloader: ImagePreloader;
  version: number;
} {
  const [version, setVersion] = useState(0);
  const [preloader] = useState(() => createImagePreloader(load, () => setVersion((n) => n + 1)));
  useEffect(() => () => preloader.stop(), [preloader]);
  return { preloader, version };
}
