import { type Credentials, IMPERSONATE_COOKIE, type User, type UserSummary } from '@lakecams/contracts';
import { isUnexpired, refreshDelay } from './access-token.ts';
import { type ApiClient, ApiError, createApiClient, writeDocumentCookie } from './api-client.ts';
import {
  type AuthState,
  accessState,
  EMPTY_AUTH_STATE,
  impersonatedUserId,
  type RefererOfUser,
  summaryOf,
} from './auth-state.ts';
import {
  defaultUserStorage,
  parseStoredActingUser,
  parseStoredUser,
  readStoredActingUser,
  readStoredUser,
  STORED_ACTING_USER_KEY,
  STORED_USER_KEY,
  type UserStorage,
  writeStoredActingUser,
  writeStoredUser,
} from './stored-user.ts';

export const AUTH_PATHS = {
  authenticate: '/api/Authenticate/Authenticate',
  refreshToken: '/api/Authenticate/RefreshToken',
  logOut: '/api/Authenticate/LogOut/logout',
  roles: '/api/Authenticate/Roles/roles',
  referersOfUser: '/api/Referer/GetRefererOfUser/ofUser',
} as const;

/** Held while a tab refreshes: the refresh cookie rotates, so two tabs refreshing at once would look like token theft. */
export const REFRESH_LOCK_NAME = 'lakecams-token-refresh';
/** After a refresh that failed for another reason than 401, try again this much later. */
export const REFRESH_RETRY_MS = 30_000;

export type SessionListener = (state: AuthState) => void;

export interface SessionOptions {
  /** Where the user record is kept; null keeps it for the life of the page only. */
  storage?: UserStorage | null;
  fetch?: typeof fetch;
  readCookie?: (name: string) => string | null;
  /** Sets or (null) removes a cookie: the impersonation cookie pictures carry. */
  writeCookie?: (name: string, value: string | null) => void;
  apiRoot?: string;
  /** Cross-tab lock; by default `navigator.locks` where the browser has it. */
  locks?: Pick<LockManager, 'request'> | null;
  /** Where the storage events of other tabs arrive; null ignores other tabs. */
  eventTarget?: Pick<Window, 'addEventListener' | 'removeEventListener'> | null;
  /** Where logout goes: `/`. */
  navigate?: (path: string) => void;
  /** The page reload after a failed refresh, once the user is logged out. */
  reload?: () => void;
  now?: () => number;
}

export interface Session {
  getState(): AuthState;
  /** Returns the unsubscribe function; fits React's `useSyncExternalStore`. */
  subscribe(listener: SessionListener): () => void;
  /** Before the app loads: refresh the restored user's token, then load roles and referers. */
  start(): Promise<void>;
  /** Refreshes the access token; does nothing without a stored user. Resolves to the user afterwards. */
  refresh(): Promise<User | null>;
  /** Throws ApiError (401 wrong credentials, 403 email not confirmed). */
  login(credentials: Credentials): Promise<User>;
  logout(): Promise<void>;
  impersonate(user: UserSummary): Promise<void>;
  stopImpersonating(): Promise<void>;
  /** Loads the acting user's roles and referers again, e.g. after a code granted a role. */
  reloadAccess(): Promise<void>;
  /** The acting user's record changed on the server (profile update). */
  actingUserUpdated(user: UserSummary): void;
  readonly api: ApiClient;
  /** Stops the timer and the cross-tab listener (tests, hot reload). */
  dispose(): void;
}

type Renewal = { outcome: 'renewed'; user: User } | { outcome: 'rejected' } | { outcome: 'failed' };

function defaultLocks(): Pick<LockManager, 'request'> | null {
  return typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null;
}

function defaultNavigate(path: string): void {
  // single-spa patches pushState to reroute and fire popstate, so every app's router follows.
  window.history.pushState(null, '', path);
}

function sameUser(a: UserSummary | null, b: UserSummary | null): boolean {
  return a?.id === b?.id;
}

export function createSession(options: SessionOptions = {}): Session {
  const storage = options.storage === undefined ? defaultUserStorage() : options.storage;
  const locks = options.locks === undefined ? defaultLocks() : options.locks;
  const events =
    options.eventTarget === undefined ? (typeof window === 'undefined' ? null : window) : options.eventTarget;
  const navigate = options.navigate ?? defaultNavigate;
  const reload = options.reload ?? (() => window.location.reload());
  const now = options.now ?? Date.now;
  const writeCookie = options.writeCookie ?? writeDocumentCookie;

  /** Who the signed-in user acts as, kept where reloads and pictures find it: storage and the cookie. */
  function keepActingUser(acting: UserSummary | null): void {
    writeStoredActingUser(storage, acting);
    writeCookie(IMPERSONATE_COOKIE, acting?.id ?? null);
  }

  const restored = readStoredUser(storage);
  const restoredActing = restored ? readStoredActingUser(storage) : null;
  const impersonating = restoredActing && restoredActing.id !== restored?.id ? summaryOf(restoredActing) : null;
  keepActingUser(impersonating);
  let state: AuthState = restored
    ? Object.freeze({ ...EMPTY_AUTH_STATE, user: restored, applicationUser: impersonating ?? summaryOf(restored) })
    : EMPTY_AUTH_STATE;
  const listeners = new Set<SessionListener>();
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  let renewing: Promise<Renewal> | null = null;
  let endingSession: Promise<void> | null = null;
  /** Bumped on every change of who is acting, so late answers for an earlier acting user are dropped. */
  let actingGeneration = 0;

  function update(next: Partial<AuthState>): void {
    // A new object on every change, the same one otherwise: what useSyncExternalStore expects.
    state = Object.freeze({ ...state, ...next });
    for (const listener of [...listeners]) listener(state);
  }

  const api = createApiClient({
    getState: () => state,
    recoverFromUnauthorized,
    ...(options.apiRoot === undefined ? {} : { apiRoot: options.apiRoot }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.readCookie ? { readCookie: options.readCookie } : {}),
  });

  function stopTimer(): void {
    if (refreshTimer !== undefined) clearTimeout(refreshTimer);
    refreshTimer = undefined;
  }

  function scheduleRefresh(delay: number | null): void {
    stopTimer();
    if (delay === null) return;
    refreshTimer = setTimeout(refreshOnTimer, delay);
  }

  function scheduleFor(user: User): void {
    scheduleRefresh(refreshDelay(user.jwtToken, now()));
  }

  /** A new access token for the same user: the acting user stays unless it was the user itself. */
  function adoptRenewedUser(user: User): void {
    const impersonating = impersonatedUserId(state) !== null;
    writeStoredUser(storage, user);
    update({ user, applicationUser: impersonating ? state.applicationUser : summaryOf(user) });
    scheduleFor(user);
  }

  function signIn(user: User): void {
    actingGeneration++;
    writeStoredUser(storage, user);
    keepActingUser(null);
    update({ ...EMPTY_AUTH_STATE, user, applicationUser: summaryOf(user) });
    scheduleFor(user);
  }

  /** Forget the session in this page without telling the server (it already knows, or another tab did). */
  function clearLocally(): void {
    actingGeneration++;
    writeStoredUser(storage, null);
    keepActingUser(null);
    stopTimer();
    update(EMPTY_AUTH_STATE);
  }

  async function withRefreshLock<T>(work: () => Promise<T>): Promise<T> {
    if (!locks) return work();
    return locks.request(REFRESH_LOCK_NAME, { mode: 'exclusive' }, work) as Promise<T>;
  }

  async function renewToken(staleToken: string): Promise<Renewal> {
    return withRefreshLock(async () => {
      // While this tab waited for the lock another one may have refreshed: its user is in storage.
      const stored = readStoredUser(storage);
      if (
        stored &&
        stored.id === state.user?.id &&
        stored.jwtToken !== staleToken &&
        isUnexpired(stored.jwtToken, now())
      ) {
        return { outcome: 'renewed', user: stored };
      }
      try {
        const response = await api.fetchAnonymous(AUTH_PATHS.refreshToken, { method: 'POST' });
        if (response.status === 401) return { outcome: 'rejected' };
        if (!response.ok) return { outcome: 'failed' };
        return { outcome: 'renewed', user: (await response.json()) as User };
      } catch (error) {
        console.error('Refreshing the access token failed', error);
        return { outcome: 'failed' };
      }
    });
  }

  /** One renewal at a time: the timer, start and every concurrent 401 share it. */
  function renewOnce(): Promise<Renewal> {
    const user = state.user;
    if (!user) return Promise.resolve({ outcome: 'rejected' });
    renewing ??= renewToken(user.jwtToken)
      .then((renewal) => {
        // A logout while the call was under way wins.
        if (renewal.outcome === 'renewed' && state.user?.id === user.id) adoptRenewedUser(renewal.user);
        return renewal;
      })
      .finally(() => {
        renewing = null;
      });
    return renewing;
  }

  async function refresh(): Promise<User | null> {
    if (!state.user) return null;
    const renewal = await renewOnce();
    // The refresh cookie is gone or revoked: the stored user is signed out for good.
    if (renewal.outcome === 'rejected') clearLocally();
    // Any other failure keeps the user; its token may still be valid, and the timer tries again.
    if (renewal.outcome === 'failed' && state.user) scheduleRefresh(REFRESH_RETRY_MS);
    return state.user;
  }

  function refreshOnTimer(): void {
    refreshTimer = undefined;
    void refresh();
  }

  async function recoverFromUnauthorized(rejectedToken: string): Promise<boolean> {
    // Another request's refresh already replaced the token this one was sent with.
    if (state.user && state.user.jwtToken !== rejectedToken) return true;
    const renewal = await renewOnce();
    if (renewal.outcome === 'renewed') return true;
    // The refresh failed, or itself got 401: log out and reload, once for all waiting requests (docs/product.md §8.2).
    endingSession ??= logout().finally(() => {
      endingSession = null;
      reload();
    });
    await endingSession;
    return false;
  }

  async function reloadAccess(): Promise<void> {
    if (!state.user) return;
    const generation = ++actingGeneration;
    const [roles, referers] = await Promise.allSettled([
      api.json<string[]>(AUTH_PATHS.roles),
      api.json<RefererOfUser[]>(AUTH_PATHS.referersOfUser),
    ]);
    if (generation !== actingGeneration) return;
    // The impersonated user is gone, or the user is no Admin any more: back to acting as itself.
    const refused =
      roles.status === 'rejected' && roles.reason instanceof ApiError && [403, 404].includes(roles.reason.status);
    if (refused && impersonatedUserId(state) !== null && state.user) return actAs(state.user);
    if (roles.status === 'rejected') console.error('Loading the roles failed', roles.reason);
    if (referers.status === 'rejected') console.error('Loading the referers failed', referers.reason);
    update(
      accessState(
        roles.status === 'fulfilled' && Array.isArray(roles.value) ? roles.value : [],
        referers.status === 'fulfilled' && Array.isArray(referers.value) ? referers.value : [],
      ),
    );
  }

  async function logout(): Promise<void> {
    clearLocally();
    try {
      // No bearer: an expired one would be refused before the cookie is cleared.
      const response = await api.fetchAnonymous(AUTH_PATHS.logOut);
      await response.body?.cancel();
    } catch (error) {
      console.error('Logging out on the server failed', error);
    }
    navigate('/');
  }

  async function actAs(user: UserSummary): Promise<void> {
    if (!state.user) return;
    keepActingUser(user.id === state.user.id ? null : summaryOf(user));
    update({ applicationUser: summaryOf(user), ...accessState([], []) });
    await reloadAccess();
  }

  /** Another tab signed in, refreshed or signed out: this page follows its stored user. */
  function onStorage(event: StorageEvent): void {
    if (event.key === STORED_ACTING_USER_KEY) {
      // Another tab started or ended an impersonation: the cookie is shared, so this page follows.
      const acting = parseStoredActingUser(event.newValue);
      if (!state.user || sameUser(acting ?? state.user, state.applicationUser)) return;
      update({ applicationUser: summaryOf(acting ?? state.user), ...accessState([], []) });
      void reloadAccess();
      return;
    }
    if (event.key !== STORED_USER_KEY && event.key !== null) return;
    const stored = parseStoredUser(event.key === null ? null : event.newValue);
    if (!stored) {
      if (state.user) clearLocally();
      return;
    }
    if (stored.id === state.user?.id) {
      if (stored.jwtToken !== state.user.jwtToken) adoptRenewedUser(stored);
      return;
    }
    signIn(stored);
    void reloadAccess();
  }
  events?.addEventListener('storage', onStorage as EventListener);

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async start() {
      if (!state.user) return;
      const user = await refresh();
      if (user) await reloadAccess();
    },
    refresh,
    async login(credentials) {
      const response = await api.fetchAnonymous(AUTH_PATHS.authenticate, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(credentials),
      });
      if (!response.ok) throw await ApiError.from(response, AUTH_PATHS.authenticate);
      const user = (await response.json()) as User;
      signIn(user);
      await reloadAccess();
      return user;
    },
    logout,
    impersonate: actAs,
    async stopImpersonating() {
      if (state.user) await actAs(state.user);
    },
    reloadAccess,
    actingUserUpdated(user) {
      if (!sameUser(state.applicationUser, user)) return;
      const applicationUser = summaryOf({ ...(state.applicationUser as UserSummary), ...user });
      if (state.user && state.user.id === user.id) {
        const own = { ...state.user, ...applicationUser };
        writeStoredUser(storage, own);
        update({ user: own, applicationUser });
      } else {
        update({ applicationUser });
      }
    },
    api,
    dispose() {
      stopTimer();
      events?.removeEventListener('storage', onStorage as EventListener);
    },
  };
}
