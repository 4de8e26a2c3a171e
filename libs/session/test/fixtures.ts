import type { User } from '@lakecams/contracts';
import { vi } from 'vitest';
import { createSession, type SessionOptions } from '../src/index.ts';
import { testUser } from '../src/testing.ts';

function base64Url(text: string): string {
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An unsigned JWT with the claims the page reads. */
export function accessToken(claims: { exp: number; sub?: string; role?: string[]; name?: string }): string {
  return `${base64Url('{"alg":"EdDSA","typ":"JWT"}')}.${base64Url(JSON.stringify({ iat: claims.exp - 900, ...claims }))}.c2ln`;
}

export const NOW = Date.UTC(2026, 10, 22, 9, 0, 0);

export function userRecord(overrides: Partial<User> = {}): User {
  return testUser({ jwtToken: accessToken({ exp: NOW / 1000 + 900, sub: 'alice' }), ...overrides });
}

export const bob = {
  id: '6d1f1c9e-0000-4000-8000-000000000002',
  email: 'bob@example.ch',
  firstName: 'Bob',
  lastName: 'Beispiel',
  userName: 'bobbob',
  phoneNumber: '055 123 45 67',
  emailConfirmed: true,
};

export function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
    data,
  };
}

export type Route = (request: { url: string; init: RequestInit; headers: Headers }) => Response | Promise<Response>;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A fetch that answers by path (without query) and records every call. */
export function fakeServer(routes: Record<string, Route>) {
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    const path = url.split('?')[0] ?? url;
    const route = routes[path];
    if (!route) return json({ statusCode: 404, error: 'Not Found', message: path }, 404);
    return route({ url, init, headers: new Headers(init.headers) });
  });
  const calls = (path: string) => fetch.mock.calls.filter(([url]) => url.split('?')[0] === path);
  return { fetch, calls };
}

export function sessionWith(options: SessionOptions & { routes?: Record<string, Route> } = {}) {
  const server = fakeServer(options.routes ?? {});
  const navigate = vi.fn();
  const reload = vi.fn();
  const session = createSession({
    storage: memoryStorage(),
    locks: null,
    eventTarget: null,
    readCookie: () => 'xsrf-1',
    navigate,
    reload,
    now: () => NOW,
    ...options,
    fetch: server.fetch as unknown as typeof fetch,
  });
  return { session, server, navigate, reload };
}
