import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEV_REMOTE_COOKIE } from '@lakecams/contracts';
import {
  allowedOverrides,
  isAllowedOverrideUrl,
  overridesAfterLink,
  parseDevRemoteParam,
  parseStoredOverrides,
  REMOTE_OVERRIDES_KEY,
  type RemoteOverrides,
  storedOverridesFollowingLink,
  usableOverrides,
} from '../src/remote-overrides.ts';

const DEV_MAP = 'http://localhost:3101/mf-manifest.json';

describe('the ?devRemote= link', () => {
  it('names a remote by folder or federation name, then the manifest URL', () => {
    expect(parseDevRemoteParam(`mf-map@${DEV_MAP}`)).toEqual({ name: 'mf_map', url: DEV_MAP });
    expect(parseDevRemoteParam(`mf_admin@${DEV_MAP}`)).toEqual({ name: 'mf_admin', url: DEV_MAP });
    expect(parseDevRemoteParam('off')).toBe('clear');
    expect(parseDevRemoteParam('')).toBe('clear');
  });

  it('ignores remotes that do not exist and what is not a URL', () => {
    expect(parseDevRemoteParam(`shell@${DEV_MAP}`)).toBeNull();
    expect(parseDevRemoteParam(`mf-unknown@${DEV_MAP}`)).toBeNull();
    expect(parseDevRemoteParam('mf-map@not a url')).toBeNull();
    expect(parseDevRemoteParam(DEV_MAP)).toBeNull();
  });

  it('is applied in order over what the browser keeps', () => {
    const stored = { mf_account: 'http://localhost:3102/mf-manifest.json' };
    expect(overridesAfterLink(stored, [`mf-map@${DEV_MAP}`])).toEqual({ ...stored, mf_map: DEV_MAP });
    expect(overridesAfterLink(stored, ['off', `mf-map@${DEV_MAP}`])).toEqual({ mf_map: DEV_MAP });
    expect(overridesAfterLink(stored, [`mf-map@${DEV_MAP}`, 'off'])).toEqual({});
  });
});

describe('the stored overrides', () => {
  it('keep known remotes with a URL and drop anything else a user may have typed', () => {
    expect(
      parseStoredOverrides(
        JSON.stringify({ 'mf-map': DEV_MAP, mf_admin: 42, mf_unknown: DEV_MAP, mf_account: 'kaputt' }),
      ),
    ).toEqual({ mf_map: DEV_MAP });
    for (const raw of [null, '', '{', '[]', 'null', '"mf_map"']) expect(parseStoredOverrides(raw)).toEqual({});
  });
});

describe('the allow-list', () => {
  it('lets code come from this machine, on any port, over http or https', () => {
    for (const url of [
      DEV_MAP,
      'https://localhost/remote/mf-manifest.json',
      'http://127.0.0.1:3101/mf-manifest.json',
      'http://[::1]:3101/mf-manifest.json',
    ]) {
      expect(isAllowedOverrideUrl(url), url).toBe(true);
    }
  });

  it('refuses every other origin unless the portal lists it exactly', () => {
    for (const url of [
      'https://remote.example/mf-manifest.json',
      'http://localhost.remote.example/mf-manifest.json',
      'http://127.0.0.1.nip.io/mf-manifest.json',
      'http://remote.example@localhost:3101/mf-manifest.json',
      'javascript:alert(1)',
      'data:text/javascript,alert(1)',
      'file:///tmp/mf-manifest.json',
      'mf-manifest.json',
    ]) {
      expect(isAllowedOverrideUrl(url), url).toBe(false);
    }
    const review = ['https://review.seecam.example'];
    expect(isAllowedOverrideUrl('https://review.seecam.example/mf-map/mf-manifest.json', review)).toBe(true);
    expect(isAllowedOverrideUrl('https://review.seecam.example:8443/mf-manifest.json', review)).toBe(false);
    expect(isAllowedOverrideUrl('http://review.seecam.example/mf-manifest.json', review)).toBe(false);
  });

  it('splits overrides into used and refused', () => {
    const elsewhere = 'https://remote.example/mf-manifest.json';
    expect(allowedOverrides({ mf_map: DEV_MAP, mf_admin: elsewhere })).toEqual({
      allowed: { mf_map: DEV_MAP },
      refused: { mf_admin: elsewhere },
    });
  });
});

describe('in the page', () => {
  afterEach(() => {
    localStorage.clear();
    document.body.replaceChildren();
    window.history.replaceState(null, '', '/');
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  /** What a page load does: follow the link, then decide which overrides it uses (and keeps). */
  function pageLoad(address: string): Promise<RemoteOverrides> {
    window.history.replaceState(null, '', address);
    return usableOverrides(storedOverridesFollowingLink());
  }

  function portalAllows(...origins: string[]) {
    const fetch = vi.fn(async () => Response.json({ devRemoteOrigins: origins }));
    vi.stubGlobal('fetch', fetch);
    return fetch;
  }

  function banner(): string | undefined {
    return document.getElementById('dev-remote-banner')?.textContent ?? undefined;
  }

  it('stores what the link says and takes it out of the address, keeping the rest', async () => {
    expect(await pageLoad(`/webcams?devRemote=mf-map@${DEV_MAP}&ansicht=liste`)).toEqual({ mf_map: DEV_MAP });
    expect(JSON.parse(localStorage.getItem(REMOTE_OVERRIDES_KEY) ?? '')).toEqual({ mf_map: DEV_MAP });
    expect(window.location.pathname + window.location.search).toBe('/webcams?ansicht=liste');

    expect(await pageLoad('/?devRemote=off')).toEqual({});
    expect(localStorage.getItem(REMOTE_OVERRIDES_KEY)).toBeNull();
  });

  it('keeps an origin the portal allows, and never one it refuses, even when it is allowed later', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const review = 'https://review.seecam.example/mf-account/mf-manifest.json';
    const elsewhere = 'https://remote.example/mf-manifest.json';
    portalAllows('https://review.seecam.example');
    const link = `/?devRemote=mf-account@${review}&devRemote=mf-admin@${elsewhere}`;
    expect(await pageLoad(link)).toEqual({ mf_account: review });
    expect(banner()).toContain(`mf_admin von ${elsewhere} abgelehnt`);
    expect(JSON.parse(localStorage.getItem(REMOTE_OVERRIDES_KEY) ?? '')).toEqual({ mf_account: review });

    // The next page: the refusal was said once and is gone, even though ops now allow that origin.
    document.body.replaceChildren();
    portalAllows('https://review.seecam.example', 'https://remote.example');
    expect(await pageLoad('/')).toEqual({ mf_account: review });
    expect(banner()).not.toContain('abgelehnt');
  });

  it('drops a kept override once the portal refuses its origin', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const review = 'https://review.seecam.example/mf-account/mf-manifest.json';
    localStorage.setItem(REMOTE_OVERRIDES_KEY, JSON.stringify({ mf_map: DEV_MAP, mf_account: review }));
    portalAllows();
    expect(await pageLoad('/')).toEqual({ mf_map: DEV_MAP });
    expect(banner()).toContain(`mf_account von ${review} abgelehnt`);
    expect(JSON.parse(localStorage.getItem(REMOTE_OVERRIDES_KEY) ?? '')).toEqual({ mf_map: DEV_MAP });
  });

  it('without an answer from the portal, keeps what the browser had and stores no new origin', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const review = 'https://review.seecam.example/mf-account/mf-manifest.json';
    const other = 'https://review.seecam.example/mf-admin/mf-manifest.json';
    localStorage.setItem(REMOTE_OVERRIDES_KEY, JSON.stringify({ mf_account: review }));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    expect(await pageLoad(`/?devRemote=mf-admin@${other}&devRemote=mf-map@${DEV_MAP}`)).toEqual({ mf_map: DEV_MAP });
    expect(JSON.parse(localStorage.getItem(REMOTE_OVERRIDES_KEY) ?? '')).toEqual({
      mf_account: review,
      mf_map: DEV_MAP,
    });
  });

  it('uses overrides from this machine without asking the portal, and shows the banner', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    expect(await usableOverrides({ mf_map: DEV_MAP })).toEqual({ mf_map: DEV_MAP });
    expect(fetch).not.toHaveBeenCalled();
    expect(document.getElementById('dev-remote-banner')?.textContent).toContain(`mf_map von ${DEV_MAP}`);
  });

  it('asks the portal for other origins, and names what it refused in the banner', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const review = 'https://review.seecam.example/mf-account/mf-manifest.json';
    const elsewhere = 'https://remote.example/mf-manifest.json';
    const fetch = vi.fn(async () => Response.json({ devRemoteOrigins: ['https://review.seecam.example'] }));
    vi.stubGlobal('fetch', fetch);
    expect(await usableOverrides({ mf_account: review, mf_admin: elsewhere })).toEqual({ mf_account: review });
    expect(fetch).toHaveBeenCalledWith('/config.json');
    expect(document.getElementById('dev-remote-banner')?.textContent).toContain(`mf_admin von ${elsewhere} abgelehnt`);
  });

  it("marks the browser for the portal's page policy while it keeps a dev remote, and only then", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const marked = () => document.cookie.includes(`${DEV_REMOTE_COOKIE}=1`);
    portalAllows();
    await pageLoad('/?devRemote=mf-admin@https://remote.example/mf-manifest.json');
    expect(marked()).toBe(false);
    await pageLoad(`/?devRemote=mf-map@${DEV_MAP}`);
    expect(marked()).toBe(true);
    await pageLoad('/?devRemote=off');
    expect(marked()).toBe(false);
  });

  it('changes nothing for a browser without overrides', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    expect(await usableOverrides({})).toEqual({});
    expect(fetch).not.toHaveBeenCalled();
    expect(document.getElementById('dev-remote-banner')).toBeNull();
  });
});
