import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  AUTH_PATHS,
  apiFetch,
  configureApi,
  EMPTY_AUTH_STATE,
  STORED_USER_KEY,
  XSRF_PRIMING_PATH,
} from '../src/index.ts';
import { accessToken, bob, json, memoryStorage, NOW, sessionWith, userRecord } from './fixtures.ts';

const alice = userRecord();
const renewedAlice = userRecord({ jwtToken: accessToken({ exp: NOW / 1000 + 1800, sub: 'alice' }) });
const stored = () => memoryStorage({ [STORED_USER_KEY]: JSON.stringify(alice) });

function lastCall(fetch: ReturnType<typeof vi.fn>) {
  const [url, init] = (fetch.mock.calls.at(-1) ?? []) as [string, RequestInit | undefined];
  return { url, headers: new Headers(init?.headers), method: init?.method };
}

describe('api client headers', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    configureApi({ apiRoot: '' });
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API
    document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API
    document.cookie = '__Host-XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
  });

  it('calls the same origin by default and prefixes a configured API root', async () => {
    const { session, server } = sessionWith({ routes: {} });
    await session.api.fetch('/api/Webcam/GetImages');
    expect(lastCall(server.fetch).url).toBe('/api/Webcam/GetImages');
    expect(lastCall(server.fetch).method).toBe('GET');
    session.api.setApiRoot('https://api.example.ch/');
    await session.api.fetch('/api/News/News/news');
    expect(lastCall(server.fetch).url).toBe('https://api.example.ch/api/News/News/news');
  });

  it('sends no Authorization header while anonymous, the bearer token when signed in', async () => {
    const anonymous = sessionWith();
    await anonymous.session.api.fetch('/api/Webcam/GetImages');
    expect(lastCall(anonymous.server.fetch).headers.has('Authorization')).toBe(false);

    const signedIn = sessionWith({ storage: stored() });
    await signedIn.session.api.fetch('/api/Webcam/GetImages');
    expect(lastCall(signedIn.server.fetch).headers.get('Authorization')).toBe(`Bearer ${alice.jwtToken}`);
  });

  it('adds Impersonate only when acting as another user', async () => {
    const { session, server } = sessionWith({
      storage: stored(),
      routes: { [AUTH_PATHS.roles]: () => json([]), [AUTH_PATHS.referersOfUser]: () => json([]) },
    });
    await session.api.fetch('/api/Webcam/GetImages');
    expect(lastCall(server.fetch).headers.has('Impersonate')).toBe(false);
    await session.impersonate(bob);
    await session.api.fetch('/api/Webcam/GetImages');
    expect(lastCall(server.fetch).headers.get('Impersonate')).toBe(bob.id);
  });

  it('adds the anti-forgery header to relative non-GET/HEAD requests only', async () => {
    const { session, server } = sessionWith();
    await session.api.fetch('/api/Webcam/Set', { method: 'post', body: '{}' });
    expect(lastCall(server.fetch).headers.get('X-XSRF-TOKEN')).toBe('xsrf-1');
    expect(lastCall(server.fetch).method).toBe('POST');
    await session.api.fetch('/api/Webcam/GetImages');
    expect(lastCall(server.fetch).headers.has('X-XSRF-TOKEN')).toBe(false);
    await session.api.fetch('/api/Webcam/GetImages', { method: 'HEAD' });
    expect(lastCall(server.fetch).headers.has('X-XSRF-TOKEN')).toBe(false);
    await session.api.fetch('https://elsewhere.example.ch/api/Webcam/Set', { method: 'DELETE' });
    expect(lastCall(server.fetch).headers.has('X-XSRF-TOKEN')).toBe(false);
  });

  it('fetches the anti-forgery cookie with one GET first when it is missing', async () => {
    let cookie: string | null = null;
    const { session, server } = sessionWith({
      readCookie: () => cookie,
      routes: {
        [XSRF_PRIMING_PATH]: () => {
          cookie = 'fresh';
          return new Response('news');
        },
        '/api/Contact/Contact': () => new Response(null),
      },
    });
    await Promise.all([
      session.api.fetch('/api/Contact/Contact', { method: 'POST' }),
      session.api.fetch('/api/Contact/Contact', { method: 'POST' }),
    ]);
    expect(server.calls(XSRF_PRIMING_PATH)).toHaveLength(1);
    for (const [, init] of server.calls('/api/Contact/Contact')) {
      expect(new Headers(init?.headers).get('X-XSRF-TOKEN')).toBe('fresh');
    }
  });

  it('keeps headers the caller set', async () => {
    const { session, server } = sessionWith({ storage: stored() });
    await session.api.fetch('/api/Contact/Contact', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(lastCall(server.fetch).headers.get('Content-Type')).toBe('application/json');
    expect(lastCall(server.fetch).headers.get('Authorization')).toBe(`Bearer ${alice.jwtToken}`);
  });

  it('json() parses 2xx bodies and throws ApiError with the server message otherwise', async () => {
    const answers = [
      json([{ a: 1 }]),
      json({ statusCode: 400, error: 'Bad Request', message: 'Phone wird benötigt' }, 400),
    ];
    const { session } = sessionWith({ routes: { '/api/x': () => answers.shift() as Response } });
    await expect(session.api.json('/api/x')).resolves.toEqual([{ a: 1 }]);
    const error = await session.api.json('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, serverMessage: 'Phone wird benötigt', message: 'Phone wird benötigt' });
  });

  it('boolean() is true only for the text body true', async () => {
    const answers = [new Response('true'), new Response('false'), new Response('{"ok":true}')];
    const { session } = sessionWith({ routes: { '/api/b': () => answers.shift() as Response } });
    expect(await session.api.boolean('/api/b')).toBe(true);
    expect(await session.api.boolean('/api/b')).toBe(false);
    expect(await session.api.boolean('/api/b')).toBe(false);
  });

  it('the page-wide apiFetch reads the XSRF-TOKEN cookie and uses the global fetch', async () => {
    const fetch = vi.fn(async () => new Response('true'));
    vi.stubGlobal('fetch', fetch);
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API
    document.cookie = 'XSRF-TOKEN=abc%3D%3D';
    await apiFetch('/api/Register/Update', { method: 'POST' });
    const [url, init] = fetch.mock.calls.at(-1) as unknown as [string, RequestInit];
    expect(url).toBe('/api/Register/Update');
    expect(new Headers(init.headers).get('X-XSRF-TOKEN')).toBe('abc==');
  });

  it('reads the https name of the cookie (prefix __Host-) before the plain one', async () => {
    const cookies: Record<string, string> = { 'XSRF-TOKEN': 'plain', '__Host-XSRF-TOKEN': 'host' };
    const { session, server } = sessionWith({ readCookie: (name) => cookies[name] ?? null, routes: {} });
    await session.api.fetch('/api/Register/Update', { method: 'POST' });
    expect(lastCall(server.fetch).headers.get('X-XSRF-TOKEN')).toBe('host');
    delete cookies['__Host-XSRF-TOKEN'];
    await session.api.fetch('/api/Register/Update', { method: 'POST' });
    expect(lastCall(server.fetch).headers.get('X-XSRF-TOKEN')).toBe('plain');
  });
});

describe('api client on 401', () => {
  /** A protected resource that accepts only the renewed token. */
  const protectedRoute = ({ headers }: { headers: Headers }) =>
    headers.get('Authorization') === `Bearer ${renewedAlice.jwtToken}`
      ? json({ ok: true })
      : json({ statusCode: 401, error: 'Unauthorized', message: 'expired' }, 401);

  it('refreshes exactly once for three concurrent 401s and retries each request', async () => {
    let release: () => void = () => {};
    const refreshed = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { session, server } = sessionWith({
      storage: stored(),
      routes: {
        '/api/Webcam/GetCameras': protectedRoute,
        [AUTH_PATHS.refreshToken]: async () => {
          await refreshed;
          return json(renewedAlice);
        },
      },
    });
    const requests = [1, 2, 3].map(() => session.api.json('/api/Webcam/GetCameras'));
    await vi.waitFor(() => expect(server.calls(AUTH_PATHS.refreshToken)).toHaveLength(1));
    release();
    await expect(Promise.all(requests)).resolves.toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(server.calls(AUTH_PATHS.refreshToken)).toHaveLength(1);
    expect(server.calls('/api/Webcam/GetCameras')).toHaveLength(6);
    expect(session.getState().user).toEqual(renewedAlice);
    session.dispose();
  });

  it('retries only once: a second 401 goes back to the caller', async () => {
    const { session, server } = sessionWith({
      storage: stored(),
      routes: {
        '/api/Webcam/GetCameras': () => json({ statusCode: 401 }, 401),
        [AUTH_PATHS.refreshToken]: () => json(renewedAlice),
      },
    });
    const response = await session.api.fetch('/api/Webcam/GetCameras');
    expect(response.status).toBe(401);
    expect(server.calls('/api/Webcam/GetCameras')).toHaveLength(2);
    expect(server.calls(AUTH_PATHS.refreshToken)).toHaveLength(1);
    session.dispose();
  });

  it.each([
    ['the refresh itself gets 401', () => json({ statusCode: 401 }, 401)],
    ['the refresh fails', () => json({ statusCode: 503 }, 503)],
  ])('logs out and reloads the page once when %s', async (_case, refreshAnswer) => {
    const storage = stored();
    const { session, server, navigate, reload } = sessionWith({
      storage,
      routes: {
        '/api/Webcam/GetCameras': protectedRoute,
        [AUTH_PATHS.refreshToken]: refreshAnswer,
        [AUTH_PATHS.logOut]: () => new Response(null),
      },
    });
    const responses = await Promise.all([1, 2, 3].map(() => session.api.fetch('/api/Webcam/GetCameras')));
    expect(responses.map((r) => r.status)).toEqual([401, 401, 401]);
    expect(server.calls(AUTH_PATHS.refreshToken)).toHaveLength(1);
    expect(server.calls(AUTH_PATHS.logOut)).toHaveLength(1);
    expect(session.getState()).toEqual(EMPTY_AUTH_STATE);
    expect(storage.data.has(STORED_USER_KEY)).toBe(false);
    expect(navigate).toHaveBeenCalledWith('/');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('passes a 401 through while anonymous: there is nothing to refresh', async () => {
    const { session, server, reload } = sessionWith({
      routes: { '/api/Webcam/GetCameras': () => json({ statusCode: 401 }, 401) },
    });
    expect((await session.api.fetch('/api/Webcam/GetCameras')).status).toBe(401);
    expect(server.calls(AUTH_PATHS.refreshToken)).toHaveLength(0);
    expect(reload).not.toHaveBeenCalled();
  });
});
