import { type ErrorBody, IMPERSONATE_HEADER, XSRF_COOKIE_NAMES, XSRF_HEADER } from '@lakecams/contracts';
import { type AuthState, impersonatedUserId } from './auth-state.ts';

export { IMPERSONATE_HEADER };

/** A cheap GET whose answer carries the anti-forgery cookie (the gateway sets it on every answer). */
export const XSRF_PRIMING_PATH = '/api/News/News/news';

export interface ApiClientOptions {
  getState: () => AuthState;
  /**
   * Called when an authenticated call answered 401: refresh the token (once for all concurrent
   * callers) and resolve true to retry, false when the session is over.
   */
  recoverFromUnauthorized?: (rejectedToken: string) => Promise<boolean>;
  /** Prefix for `/api/...` paths; '' means the page's own origin. */
  apiRoot?: string;
  /** Defaults to the global fetch, looked up on every call. */
  fetch?: typeof fetch;
  readCookie?: (name: string) => string | null;
}

export interface ApiClient {
  /** `path` is an `/api/...` path; absolute URLs are sent as they are. On 401: one refresh, one retry. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Like `fetch`, but throws ApiError on a non-2xx status and parses the JSON body. */
  json<T>(path: string, init?: RequestInit): Promise<T>;
  /** True when the text body is `true`, as boolean routes answer. Throws ApiError on a non-2xx status. */
  boolean(path: string, init?: RequestInit): Promise<boolean>;
  /** Without bearer token, impersonation and 401 handling: for the token calls themselves. */
  fetchAnonymous(path: string, init?: RequestInit): Promise<Response>;
  setApiRoot(apiRoot: string): void;
}

export class ApiError extends Error {
  readonly status: number;
  readonly url: string;
  /** The `message` of the server's error body, e.g. a form rule's validation message. */
  readonly serverMessage: string | null;

  constructor(status: number, url: string, serverMessage: string | null = null) {
    super(serverMessage ?? `${url} answered ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.url = url;
    this.serverMessage = serverMessage;
  }

  static async from(response: Response, url: string): Promise<ApiError> {
    let message: string | null = null;
    try {
      const body = (await response.json()) as Partial<ErrorBody>;
      if (typeof body?.message === 'string' && body.message !== '') message = body.message;
    } catch {
      // not an error body: the status says enough
    }
    return new ApiError(response.status, url, message);
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

function isAbsolute(url: string): boolean {
  return /^[a-z][a-z\d+.-]*:/i.test(url) || url.startsWith('//');
}

export function readDocumentCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  for (const pair of document.cookie.split(';')) {
    const [key, ...value] = pair.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return null;
}

/** Sets, or with null removes, a cookie sent with the page's API requests and pictures (path /api, this site only). */
export function writeDocumentCookie(name: string, value: string | null): void {
  if (typeof document === 'undefined') return;
  const secure = typeof location !== 'undefined' && location.protocol === 'https:' ? '; Secure' : '';
  const removal = value === null ? '; Max-Age=0' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API needs a secure context; the portal also runs on plain http
  document.cookie = `${name}=${encodeURIComponent(value ?? '')}; Path=/api; SameSite=Strict${removal}${secure}`;
}

interface Sent {
  response: Response;
  /** The bearer token the request carried, if any. */
  token: string | null;
}

/**
 * The one HTTP client of the page: bearer token, Impersonate and anti-forgery headers, one refresh on 401
 * (docs/product.md §8.2).
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  let apiRoot = options.apiRoot ?? '';
  const readCookie = options.readCookie ?? readDocumentCookie;
  const transport = (url: string, init: RequestInit) => (options.fetch ?? globalThis.fetch)(url, init);
  let priming: Promise<void> | null = null;

  const urlOf = (path: string) => (isAbsolute(path) ? path : `${apiRoot}${path}`);

  /** Over https the cookie has the `__Host-` prefix, over http its plain name. */
  const storedToken = () => XSRF_COOKIE_NAMES.map((name) => readCookie(name)).find(Boolean) ?? null;

  /** The cookie's value; on a first visit there is none yet, so one cheap GET fetches it (shared by concurrent callers). */
  async function antiForgeryToken(): Promise<string | null> {
    const token = storedToken();
    if (token) return token;
    priming ??= transport(urlOf(XSRF_PRIMING_PATH), { method: 'GET', credentials: 'same-origin' })
      .then(
        (response) => response.body?.cancel(),
        () => {},
      )
      .finally(() => {
        priming = null;
      });
    await priming;
    return storedToken();
  }

  async function send(path: string, init: RequestInit, authorize: boolean): Promise<Sent> {
    const url = urlOf(path);
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers);
    const state = options.getState();
    let token: string | null = null;

    if (authorize && state.user) {
      token = state.user.jwtToken;
      if (!headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
      const actingAs = impersonatedUserId(state);
      if (actingAs && !headers.has(IMPERSONATE_HEADER)) headers.set(IMPERSONATE_HEADER, actingAs);
    }
    // Angular's rule: only relative URLs get the anti-forgery header, so its token never leaves the site.
    if (!SAFE_METHODS.has(method) && !isAbsolute(url) && !headers.has(XSRF_HEADER)) {
      const xsrf = await antiForgeryToken();
      if (xsrf) headers.set(XSRF_HEADER, xsrf);
    }
    const response = await transport(url, { credentials: 'same-origin', ...init, method, headers });
    return { response, token };
  }

  const client: ApiClient = {
    async fetch(path, init = {}) {
      const first = await send(path, init, true);
      if (first.response.status !== 401 || !first.token || !options.recoverFromUnauthorized) return first.response;
      if (!(await options.recoverFromUnauthorized(first.token))) return first.response;
      await first.response.body?.cancel();
      // Exactly one retry: a second 401 goes back to the caller.
      return (await send(path, init, true)).response;
    },
    async json<T>(path: string, init?: RequestInit): Promise<T> {
      const response = await client.fetch(path, init);
      if (!response.ok) throw await ApiError.from(response, path);
      return (await response.json()) as T;
    },
    async boolean(path, init) {
      const response = await client.fetch(path, init);
      if (!response.ok) throw await ApiError.from(response, path);
      return (await response.text()).trim() === 'true';
    },
    async fetchAnonymous(path, init = {}) {
      return (await send(path, init, false)).response;
    },
    setApiRoot(root) {
      apiRoot = root.replace(/\/+$/, '');
    },
  };
  return client;
}
