import type { Image } from '@lakecams/contracts';
import { useEffect, useRef } from 'react';

/** Server-sent events of the gateway: event `image`, data an `Image`. */
export const LIVE_EVENTS_PATH = '/api/Events/stream';
/** Keeps the stream open across a page change inside this app, so navigating does not reconnect. */
const CLOSE_DELAY_MS = 2_000;

export type ImageListener = (image: Image) => void;

interface EventStream {
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
  close(): void;
}

export type OpenEventStream = (url: string) => EventStream | null;

const openBrowserStream: OpenEventStream = (url) => (typeof EventSource === 'undefined' ? null : new EventSource(url));

/** The event's data as an Image, or null when it is not one (never trust the wire). */
export function parseImageEvent(data: unknown): Image | null {
  let value: unknown;
  try {
    value = typeof data === 'string' ? JSON.parse(data) : data;
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const image = value as Record<string, unknown>;
  const numbers = ['lat', 'lng', 'direction', 'webcamId'].every((key) => typeof image[key] === 'number');
  if (!numbers || typeof image.name !== 'string' || !/^\d{12}$/.test(image.name)) return null;
  return {
    webcamId: image.webcamId as number,
    name: image.name,
    lat: image.lat as number,
    lng: image.lng as number,
    direction: image.direction as number,
  };
}

/** One EventSource for the whole page, opened for the first listener and closed after the last (it reconnects by itself). */
export function createLiveImageFeed(open: OpenEventStream = openBrowserStream, closeDelayMs = CLOSE_DELAY_MS) {
  const listeners = new Set<ImageListener>();
  let stream: EventStream | null = null;
  let closeTimer: ReturnType<typeof setTimeout> | undefined;

  const dispatch = (event: MessageEvent) => {
    const image = parseImageEvent(event.data);
    if (!image) return;
    for (const listener of [...listeners]) listener(image);
  };

  return {
    subscribe(listener: ImageListener): () => void {
      listeners.add(listener);
      clearTimeout(closeTimer);
      if (!stream) {
        stream = open(LIVE_EVENTS_PATH);
        stream?.addEventListener('image', dispatch);
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size > 0) return;
        clearTimeout(closeTimer);
        closeTimer = setTimeout(() => {
          stream?.close();
          stream = null;
        }, closeDelayMs);
      };
    },
    get listenerCount() {
      return listeners.size;
    },
  };
}

export const liveImages = createLiveImageFeed();

/** Calls `onImage` for every new image while the component is mounted; the latest callback is used. */
export function useLiveImages(onImage: ImageListener, feed = liveImages): void {
  const current = useRef(onImage);
  useEffect(() => {
    current.current = onImage;
  });
  useEffect(() => feed.subscribe((image) => current.current(image)), [feed]);
}
