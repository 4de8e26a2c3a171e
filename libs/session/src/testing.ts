import type { User, UserSummary } from '@lakecams/contracts';
import { AUTH_PATHS, createSession, type Session } from './session.ts';
import { STORED_USER_KEY } from './stored-user.ts';

/** Answers one API path (without query) in a test. */
export type FakeRoute = (request: { url: string; init: RequestInit }) => Response | Promise<Response>;

export interface RecordedRequest {
  url: string;
  path: string;
  method: string;
  headers: Headers;
  body: unknown;
}

export interface TestSessionOptions {
  /** Signed in as this user from the start (as if restored from storage). */
  user?: User;
  roles?: string[];
  referers?: { id: number; userEmail: string; url: string }[];
  routes?: Record<string, FakeRoute>;
}

export const jsonResponse = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A sample user; override what the test is about. */
export function testUser(overrides: Partial<User> = {}): User {
  return {
    id: '6d1f1c9e-0000-4000-8000-000000000001',
    email: 'alice@example.ch',
    firstName: 'Alice',
    lastName: 'Muster',
    userName: 'alice1',
    phoneNumber: '044 123 45 67',
    emailConfirmed: true,
    // No exp claim, so no refresh timer runs in tests.
    jwtToken: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9.',
    roles: [],
    ...overrides,
  };
}

export function testUserSummary(overrides: Partial<UserSummary> = {}): UserSummary {
  const { jwtToken: _token, roles: _roles, ...summary } = testUser(overrides);
  return summary;
}

/**
 * A real session over a fake API, for component tests: in memory, no timers, no other tabs,
 * navigation and reload recorded instead of done.
 */
export async function createTestSession(options: TestSessionOptions = {}) {
  const requests: RecordedRequest[] = [];
  const navigations: string[] = [];
  let reloads = 0;
  const routes: Record<string, FakeRoute> = {
    [AUTH_PATHS.roles]: () => jsonResponse(options.roles ?? []),
    [AUTH_PATHS.referersOfUser]: () => jsonResponse(options.referers ?? []),
    [AUTH_PATHS.logOut]: () => new Response(null),
    ...options.routes,
  };
  const data = new Map<string, string>();
  if (options.user) data.set(STORED_USER_KEY, JSON.stringify(options.user));

  const fetch = async (url: string, init: RequestInit = {}) => {
    const path = new URL(url, 'http://test.invalid').pathname;
    const body = typeof init.body === 'string' ? parseJson(init.body) : init.body;
    requests.push({ url, path, method: init.method ?? 'GET', headers: new Headers(init.headers), body });
    const route = routes[path];
    return route ? route({ url, init }) : jsonResponse({ statusCode: 404, error: 'Not Found', message: path }, 404);
  };

  const session: Session = createSession({
    storage: {
      getItem: (key) => data.get(key) ?? null,
      setItem: (key, value) => void data.set(key, value),
      removeItem: (key) => void data.delete(key),
    },
    fetch: fetch as typeof globalThis.fetch,
    readCookie: () => 'test-xsrf',
    locks: null,
    eventTarget: null,
    navigate: (path) => void navigations.push(path),
    reload: () => {
      reloads++;
    },
  });
  if (options.user) await session.reloadAccess();
  return {
    session,
    requests,
    navigations,
    reloads: () => reloads,
    /** Replace or add an answer while the test runs. */
    route(path: string, answer: FakeRoute) {
      routes[path] = answer;
    },
    requestsTo: (path: string) => requests.filter((request) => request.path === path),
  };
}
