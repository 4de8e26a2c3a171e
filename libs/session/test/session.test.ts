import { IMPERSONATE_COOKIE } from '@lakecams/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AUTH_PATHS,
  EMPTY_AUTH_STATE,
  REFRESH_LOCK_NAME,
  STORED_ACTING_USER_KEY,
  STORED_USER_KEY,
} from '../src/index.ts';
import { accessToken, bob, json, memoryStorage, NOW, type Route, sessionWith, userRecord } from './fixtures.ts';

const alice = userRecord();
const renewedAlice = userRecord({ jwtToken: accessToken({ exp: NOW / 1000 + 1800, sub: 'alice' }) });

const access = (roles: string[], referers: unknown[] = []): Record<string, Route> => ({
  [AUTH_PATHS.roles]: () => json(roles),
  [AUTH_PATHS.referersOfUser]: () => json(referers),
});

const storedWith = (user = alice) => memoryStorage({ [STORED_USER_KEY]: JSON.stringify(user) });

describe('session: restore and refresh', () => {
  afterEach(() => vi.useRealTimers());

  it('restores the stored user on load, acting as itself', () => {
    const { session } = sessionWith({ storage: storedWith() });
    expect(session.getState().user).toEqual(alice);
    expect(session.getState().applicationUser?.id).toBe(alice.id);
    expect(session.getState().applicationUser).not.toHaveProperty('jwtToken');
  });

  it('starts anonymous with nothing or garbage stored', () => {
    expect(sessionWith().session.getState()).toEqual(EMPTY_AUTH_STATE);
    const garbage = memoryStorage({ [STORED_USER_KEY]: '{"id":1' });
    expect(sessionWith({ storage: garbage }).session.getState()).toEqual(EMPTY_AUTH_STATE);
  });

  it('refresh does nothing when no user is stored', async () => {
    const { session, server } = sessionWith();
    await expect(session.refresh()).resolves.toBeNull();
    await session.start();
    expect(server.fetch).not.toHaveBeenCalled();
  });

  it('refresh replaces the stored user, without bearer and with the anti-forgery header', async () => {
    const storage = storedWith();
    const { session, server } = sessionWith({
      storage,
      routes: { [AUTH_PATHS.refreshToken]: () => json(renewedAlice) },
    });
    await expect(session.refresh()).resolves.toEqual(renewedAlice);
    expect(session.getState().user).toEqual(renewedAlice);
    expect(JSON.parse(storage.data.get(STORED_USER_KEY) ?? '')).toEqual(renewedAlice);
    const [, init] = server.calls(AUTH_PATHS.refreshToken)[0] ?? [];
    const headers = new Headers(init?.headers);
    expect(init?.method).toBe('POST');
    expect(headers.has('Authorization')).toBe(false);
    expect(headers.get('X-XSRF-TOKEN')).toBe('xsrf-1');
  });

  it('start refreshes, then loads roles and referers', async () => {
    const { session, server } = sessionWith({
      storage: storedWith(),
      routes: { [AUTH_PATHS.refreshToken]: () => json(renewedAlice), ...access(['Admin'], [{ id: 1 }]) },
    });
    await session.start();
    expect(server.calls(AUTH_PATHS.refreshToken)).toHaveLength(1);
    expect(session.getState()).toMatchObject({ user: renewedAlice, roles: ['Admin'], isAdmin: true, hasReferes: true });
  });

  it('a refresh answered 401 signs the stored user out', async () => {
    const storage = storedWith();
    const { session, navigate } = sessionWith({
      storage,
      routes: { [AUTH_PATHS.refreshToken]: () => json({ statusCode: 401 }, 401) },
    });
    await expect(session.refresh()).resolves.toBeNull();
    expect(session.getState()).toEqual(EMPTY_AUTH_STATE);
    expect(storage.data.has(STORED_USER_KEY)).toBe(false);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('a refresh that fails otherwise keeps the user', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { session } = sessionWith({
      storage: storedWith(),
      routes: {
        [AUTH_PATHS.refreshToken]: () => {
          throw new TypeError('network');
        },
      },
    });
    await expect(session.refresh()).resolves.toEqual(alice);
    session.dispose();
  });

  it('refreshes automatically 60 s before the access token expires', async () => {
    vi.useFakeTimers();
    let clock = NOW;
    const { session, server } = sessionWith({
      now: () => clock,
      routes: {
        [AUTH_PATHS.authenticate]: () => json(alice),
        [AUTH_PATHS.refreshToken]: () => json(renewedAlice),
        ...access([]),
      },
    });
    await session.login({ username: 'alice1', password: 'Secret1!' });
    // alice's token lives 900 s: the refresh is due after 840 s.
    await vi.advanceTimersByTimeAsync(839_999);
    expect(server.calls(AUTH_PATHS.refreshToken)).toHaveLength(0);
    clock += 840_000;
    await vi.advanceTimersByTimeAsync(1);
    expect(server.calls(AUTH_PATHS.refreshToken)).toHaveLength(1);
    expect(session.getState().user).toEqual(renewedAlice);
    // The renewed token lives 1800 s from NOW, so the next refresh is due 900 s later.
    await vi.advanceTimersByTimeAsync(899_000);
    expect(server.calls(AUTH_PATHS.refreshToken)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(server.calls(AUTH_PATHS.refreshToken)).toHaveLength(2);
    session.dispose();
  });

  it('refreshes under the cross-tab lock and adopts a token another tab stored meanwhile', async () => {
    const storage = storedWith();
    const request = vi.fn(async (_name: string, _options: LockOptions, work: () => Promise<unknown>) => {
      // The other tab finished its refresh while this one waited.
      storage.setItem(STORED_USER_KEY, JSON.stringify(renewedAlice));
      return work();
    });
    const { session, server } = sessionWith({
      storage,
      locks: { request } as unknown as LockManager,
      routes: { [AUTH_PATHS.refreshToken]: () => json(userRecord()) },
    });
    await session.refresh();
    expect(request).toHaveBeenCalledWith(REFRESH_LOCK_NAME, { mode: 'exclusive' }, expect.any(Function));
    expect(server.calls(AUTH_PATHS.refreshToken)).toHaveLength(0);
    expect(session.getState().user).toEqual(renewedAlice);
    session.dispose();
  });

  it('follows another tab that logs out or refreshes', () => {
    const target = new EventTarget();
    const storage = storedWith();
    const { session } = sessionWith({ storage, eventTarget: target as unknown as Window });
    const storageEvent = (newValue: string | null) =>
      Object.assign(new Event('storage'), { key: STORED_USER_KEY, newValue });
    target.dispatchEvent(storageEvent(JSON.stringify(renewedAlice)));
    expect(session.getState().user).toEqual(renewedAlice);
    target.dispatchEvent(storageEvent(null));
    expect(session.getState()).toEqual(EMPTY_AUTH_STATE);
    session.dispose();
  });
});

describe('session: login, impersonation, logout', () => {
  it('login sets user and acting user, clears access, then loads roles and referers', async () => {
    const states: unknown[] = [];
    const { session, server } = sessionWith({
      routes: {
        [AUTH_PATHS.authenticate]: () => json(alice),
        ...access(['Admin'], [{ id: 3, url: 'x', userEmail: 'a' }]),
      },
    });
    session.subscribe((state) => states.push({ ...state }));
    await session.login({ username: 'alice1', password: 'Secret1!' });

    expect(JSON.parse(String(server.calls(AUTH_PATHS.authenticate)[0]?.[1]?.body))).toEqual({
      username: 'alice1',
      password: 'Secret1!',
    });
    expect(states[0]).toMatchObject({ user: alice, roles: [], referers: [], isAdmin: false, hasReferes: false });
    expect((states[0] as { applicationUser: { id: string } }).applicationUser.id).toBe(alice.id);
    expect(session.getState()).toMatchObject({ roles: ['Admin'], isAdmin: true, hasReferes: true });
    expect(session.getState().referers).toHaveLength(1);
    session.dispose();
  });

  it('login keeps isAdmin false without the Admin role and hasReferes false without referers', async () => {
    const { session } = sessionWith({
      routes: { [AUTH_PATHS.authenticate]: () => json(alice), ...access(['Premium']) },
    });
    await session.login({ username: 'alice1', password: 'Secret1!' });
    expect(session.getState()).toMatchObject({ roles: ['Premium'], isAdmin: false, hasReferes: false });
    session.dispose();
  });

  it('login throws the server message on wrong credentials and stays anonymous', async () => {
    const { session } = sessionWith({
      routes: {
        [AUTH_PATHS.authenticate]: () =>
          json({ statusCode: 401, error: 'Unauthorized', message: 'Username or password is incorrect' }, 401),
      },
    });
    await expect(session.login({ username: 'alice1', password: 'Wrong1!x' })).rejects.toMatchObject({
      status: 401,
      serverMessage: 'Username or password is incorrect',
    });
    expect(session.getState()).toEqual(EMPTY_AUTH_STATE);
  });

  it('impersonate replaces the acting user and reloads its roles and referers; stopImpersonating returns', async () => {
    let rolesAnswer = ['Admin'];
    const { session, server } = sessionWith({
      routes: {
        [AUTH_PATHS.authenticate]: () => json(alice),
        [AUTH_PATHS.roles]: () => json(rolesAnswer),
        [AUTH_PATHS.referersOfUser]: ({ headers }) => json(headers.get('Impersonate') ? [{ id: 9 }] : []),
      },
    });
    await session.login({ username: 'alice1', password: 'Secret1!' });
    rolesAnswer = ['Premium'];
    await session.impersonate(bob);

    expect(session.getState()).toMatchObject({
      applicationUser: bob,
      roles: ['Premium'],
      isAdmin: false,
      hasReferes: true,
    });
    expect(session.getState().user?.id).toBe(alice.id);
    const lastRoles = server.calls(AUTH_PATHS.roles).at(-1);
    expect(new Headers(lastRoles?.[1]?.headers).get('Impersonate')).toBe(bob.id);

    rolesAnswer = ['Admin'];
    await session.stopImpersonating();
    expect(session.getState()).toMatchObject({ roles: ['Admin'], isAdmin: true, hasReferes: false });
    expect(session.getState().applicationUser?.id).toBe(alice.id);
    const afterwards = server.calls(AUTH_PATHS.roles).at(-1);
    expect(new Headers(afterwards?.[1]?.headers).has('Impersonate')).toBe(false);
    session.dispose();
  });

  describe('impersonation across reloads', () => {
    /** A page load: a new session on the same storage and cookies, as after F5 or a link opened anew. */
    function page(storage: ReturnType<typeof memoryStorage>, cookies: Map<string, string | null>, refuse = false) {
      return sessionWith({
        storage,
        writeCookie: (name, value) => void cookies.set(name, value),
        routes: {
          [AUTH_PATHS.authenticate]: () => json(alice),
          [AUTH_PATHS.refreshToken]: () => json(renewedAlice),
          [AUTH_PATHS.logOut]: () => new Response(null, { status: 200 }),
          [AUTH_PATHS.roles]: ({ headers }) => {
            if (!headers.get('Impersonate')) return json(['Admin']);
            return refuse
              ? json({ statusCode: 404, error: 'Not Found', message: 'No such user' }, 404)
              : json(['Premium']);
          },
          [AUTH_PATHS.referersOfUser]: () => json([]),
        },
      });
    }

    it('keeps acting as the user after a reload, with the cookie pictures carry, until the admin ends it', async () => {
      const storage = memoryStorage();
      const cookies = new Map<string, string | null>();
      const first = page(storage, cookies);
      await first.session.login({ username: 'alice1', password: 'Secret1!' });
      await first.session.impersonate(bob);
      expect(cookies.get(IMPERSONATE_COOKIE)).toBe(bob.id);
      first.session.dispose();

      const reloaded = page(storage, cookies);
      expect(reloaded.session.getState().applicationUser).toEqual(bob);
      await reloaded.session.start();
      expect(reloaded.session.getState()).toMatchObject({ applicationUser: bob, roles: ['Premium'], isAdmin: false });
      expect(reloaded.session.getState().user?.id).toBe(alice.id);
      const roles = reloaded.server.calls(AUTH_PATHS.roles).at(-1);
      expect(new Headers(roles?.[1]?.headers).get('Impersonate')).toBe(bob.id);
      expect(cookies.get(IMPERSONATE_COOKIE)).toBe(bob.id);

      await reloaded.session.stopImpersonating();
      expect(cookies.get(IMPERSONATE_COOKIE)).toBeNull();
      reloaded.session.dispose();
      const again = page(storage, cookies);
      expect(again.session.getState().applicationUser?.id).toBe(alice.id);
      again.session.dispose();
    });

    it('follows another tab that starts or ends an impersonation', async () => {
      const target = new EventTarget();
      const storage = storedWith();
      const cookies = new Map<string, string | null>();
      const { session } = sessionWith({
        storage,
        eventTarget: target as unknown as Window,
        writeCookie: (name, value) => void cookies.set(name, value),
        routes: access(['Premium']),
      });
      const actingEvent = (newValue: string | null) =>
        Object.assign(new Event('storage'), { key: STORED_ACTING_USER_KEY, newValue });
      target.dispatchEvent(actingEvent(JSON.stringify(bob)));
      expect(session.getState().applicationUser).toEqual(bob);
      await vi.waitFor(() => expect(session.getState().roles).toEqual(['Premium']));
      target.dispatchEvent(actingEvent(null));
      expect(session.getState().applicationUser?.id).toBe(alice.id);
      session.dispose();
    });

    it('ends with the log-off, and when the server refuses the restored impersonation', async () => {
      const storage = memoryStorage();
      const cookies = new Map<string, string | null>();
      const first = page(storage, cookies);
      await first.session.login({ username: 'alice1', password: 'Secret1!' });
      await first.session.impersonate(bob);
      first.session.dispose();

      const refused = page(storage, cookies, true);
      await refused.session.start();
      expect(refused.session.getState()).toMatchObject({ roles: ['Admin'], isAdmin: true });
      expect(refused.session.getState().applicationUser?.id).toBe(alice.id);
      expect(cookies.get(IMPERSONATE_COOKIE)).toBeNull();

      await refused.session.impersonate(bob);
      await refused.session.logout();
      expect(cookies.get(IMPERSONATE_COOKIE)).toBeNull();
      expect(page(storage, cookies).session.getState()).toEqual(EMPTY_AUTH_STATE);
      refused.session.dispose();
    });
  });

  it('logout clears storage, stops the timer, resets state, calls LogOut and goes to /', async () => {
    vi.useFakeTimers();
    const storage = memoryStorage();
    const { session, server, navigate } = sessionWith({
      storage,
      routes: {
        [AUTH_PATHS.authenticate]: () => json(alice),
        [AUTH_PATHS.logOut]: () => new Response(null, { status: 200 }),
        [AUTH_PATHS.refreshToken]: () => json(renewedAlice),
        ...access(['Admin']),
      },
    });
    await session.login({ username: 'alice1', password: 'Secret1!' });
    expect(storage.data.has(STORED_USER_KEY)).toBe(true);

    await session.logout();
    expect(storage.data.has(STORED_USER_KEY)).toBe(false);
    expect(session.getState()).toEqual(EMPTY_AUTH_STATE);
    expect(server.calls(AUTH_PATHS.logOut)).toHaveLength(1);
    expect(navigate).toHaveBeenCalledWith('/');
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(server.calls(AUTH_PATHS.refreshToken)).toHaveLength(0);
    vi.useRealTimers();
  });

  it('updates the stored user when the acting user is the user itself', async () => {
    const storage = storedWith();
    const { session } = sessionWith({ storage });
    session.actingUserUpdated({ ...alice, firstName: 'Alicia' });
    expect(session.getState().user?.firstName).toBe('Alicia');
    expect(session.getState().user?.jwtToken).toBe(alice.jwtToken);
    expect(session.getState().applicationUser?.firstName).toBe('Alicia');
    expect(JSON.parse(storage.data.get(STORED_USER_KEY) ?? '').firstName).toBe('Alicia');
  });
});
