import type { Image } from '@lakecams/contracts';
import { useEffect, useRef } from 'react';
import { LIVE_EVENTS_PATH } from '../api/map-api.ts';

export { LIVE_EVENTS_PATH };

/**
 * Server-sent events of the gateway: event `image`, data a `LiveImage`; event `removed`, data a `CameraRemoval`
 * (an administrator deleted the camera).
 */
/** Keeps the stream open across a page change inside this app, so navigating does not reconnect. */
const CLOSE_DELAY_MS = 2_000;

/** A camera an administrator deleted: its id, and its name when the server knew it. */
export interface CameraRemoval {
  webcamId: number;
  camera?: string;
}

/**
 * A new picture: an `Image`, and whether it has the same bytes as the camera's picture before it (absent when a
 * picture is announced again, e.g. with a corrected position).
 */
export interface LiveImage extends Image {
  frozen?: boolean;
}

export type ImageListener = (image: LiveImage) => void;
export type RemovalListener = (removal: CameraRemoval) => void;

/** What one subscriber hears; a bare function hears images only. */
export interface LiveListener {
  image?: ImageListener;
  removed?: RemovalListener;
}

interface EventStream {
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
  close(): void;
}

export type OpenEventStream = (url: string) => EventStream | null;

const openBrowserStream: OpenEventStream = (url) => (typeof EventSource === 'undefined' ? null : new EventSource(url));

function parseJsonObject(data: unknown): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = typeof data === 'string' ? JSON.parse(data) : data;
  } catch {
    return null;
  }
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
}

/** The event's data as a LiveImage, or null when it is not one (never trust the wire). */
export function parseImageEvent(data: unknown): LiveImage | null {
  const image = parseJsonObject(data);
  if (!image) return null;
  const numbers = ['lat', 'lng', 'direction', 'webcamId'].every((key) => typeof image[key] === 'number');
  if (!numbers || typeof image.name !== 'string' || !/^\d{12}$/.test(image.name)) return null;
  return {
    webcamId: image.webcamId as number,
    name: image.name,
    lat: image.lat as number,
    lng: image.lng as number,
    direction: image.direction as number,
    ...(typeof image.frozen === 'boolean' ? { frozen: image.frozen } : {}),
  };
}

/** The event's data as a removal, or null when it names no camera id. */
export function parseRemovalEvent(data: unknown): CameraRemoval | null {
  const removal = parseJsonObject(data);
  const webcamId = removal?.webcamId;
  if (typeof webcamId !== 'number' || !Number.isInteger(webcamId) || webcamId < 1) return null;
  const camera = removal?.camera;
  return typeof camera === 'string' && camera !== '' ? { webcamId, camera } : { webcamId };
}

/** One EventSource for the whole page, opened for the first listener and closed after the last (it reconnects by itself). */
export function createLiveImageFeed(open: OpenEventStream = openBrowserStream, closeDelayMs = CLOSE_DELAY_MS) {
  const listeners = new Set<LiveListener>();
  let stream: EventStream | null = null;
  let closeTimer: ReturnType<typeof setTimeout> | undefined;

  const dispatchImage = (event: MessageEvent) => {
    const image = parseImageEvent(event.data);
    if (!image) return;
    for (const listener of [...listeners]) listener.image?.(image);
  };
  const dispatchRemoval = (event: MessageEvent) => {
    const removal = parseRemovalEvent(event.data);
    if (!removal) return;
    for (const listener of [...listeners]) listener.removed?.(removal);
  };

  return {
    subscribe(listener: ImageListener | LiveListener): () => void {
      // Its own object per call, so the same function subscribed twice is two listeners.
      const entry: LiveListener = typeof listener === 'function' ? { image: listener } : { ...listener };
      listeners.add(entry);
      clearTimeout(closeTimer);
      if (!stream) {
        stream = open(LIVE_EVENTS_PATH);
        stream?.addEventListener('image', dispatchImage);
        stream?.addEventListener('removed', dispatchRemoval);
      }
      return () => {
        listeners.delete(entry);
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

export type LiveFeed = ReturnType<typeof createLiveImageFeed>;

export const liveImages = createLiveImageFeed();

/** Calls `onImage` for every new image while the component is mounted; the latest callback is used. */
export function useLiveImages(onImage: ImageListener, feed: LiveFeed = liveImages): void {
  const current = useRef(onImage);
  useEffect(() => {
    current.current = onImage;
  });
  useEffect(() => feed.subscribe((image) => current.current(image)), [feed]);
}

/** Calls `onRemoved` for every camera an administrator deletes while the component is mounted. */
export function useLiveRemovals(onRemoved: RemovalListener, feed: LiveFeed = liveImages): void {
  const current = useRef(onRemoved);
  useEffect(() => {
    current.current = onRemoved;
  });
  useEffect(() => feed.subscribe({ removed: (removal) => current.current(removal) }), [feed]);
}
