import type { CameraListItem, Image, Webcam } from '@lakecams/contracts';
import { render, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { MapRoutes } from '../src/map-routes.tsx';

export function webcam(id: number, name: string, overrides: Partial<Webcam> = {}): Webcam {
  return {
    id,
    name,
    pattern: `http://cam.example.ch/${name}.jpg`,
    distance: 5,
    angle: 90,
    intervalMin: 10,
    webcamType: 'STATIC',
    ...overrides,
  };
}

export function image(webcamId: number, name = '202611221200', overrides: Partial<Image> = {}): Image {
  return { lat: 47.2, lng: 8.7, direction: 180, name, webcamId, ...overrides };
}

export const ITEMS: CameraListItem[] = [
  { webcam: webcam(1, 'Rapperswil-Seedamm'), images: [image(1, '202611221200', { direction: 250 })] },
  { webcam: webcam(2, 'Dunkel'), images: [] },
  { webcam: webcam(3, 'Ohne-Bild'), images: [null, null] },
  { webcam: webcam(4, 'Staefa_Hafen'), images: [null, image(4, '202611221155', { direction: 30 })] },
  { webcam: webcam(5, 'Ohne-Standort'), images: [image(5, '202611221150', { lat: 0, lng: 0, direction: 0 })] },
];

type Route = (url: URL) => Response | Promise<Response>;

/** Stubs fetch by path; unknown paths never answer (so a test sees only what it set up). */
export function stubApi(routes: Record<string, Route | Response[]>) {
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://portal.test');
    const route = routes[url.pathname];
    if (Array.isArray(route)) return route.shift() ?? new Promise<Response>(() => {});
    return route ? route(url) : new Promise<Response>(() => {});
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** A stand-in for the browser's EventSource, so tests can push server-sent events. */
export class FakeEventSource {
  static instances: FakeEventSource[] = [];
  readonly listeners = new Map<string, ((event: MessageEvent) => void)[]>();
  closed = false;
  readonly url: string;

  constructor(url: string) {
    this.url = url;
    FakeEventSource.instances.push(this);
  }

  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close() {
    this.closed = true;
  }

  emit(type: string, data: unknown) {
    const event = new MessageEvent(type, { data: typeof data === 'string' ? data : JSON.stringify(data) });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }

  static open(): FakeEventSource[] {
    return FakeEventSource.instances.filter((source) => !source.closed);
  }
}

/** Resolves once the route's page has rendered (pages other than home load their code lazily). */
export async function renderAt(path: string) {
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <MapRoutes />
    </MemoryRouter>,
  );
  await waitFor(() => {
    if (!view.container.firstChild) throw new Error(`${path} rendered nothing yet`);
  });
  return view;
}
