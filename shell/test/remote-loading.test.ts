import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadRemoteLifecycles, remoteContainer } from '../src/remote-apps.ts';
import { parseRemoteManifestUrls } from '../src/remote-manifests.ts';

const lifecycles = { bootstrap: async () => {}, mount: async () => {}, unmount: async () => {} };

describe('parseRemoteManifestUrls', () => {
  it('keeps known remotes and makes their URLs absolute', () => {
    const body = {
      mf_map: '/remotes/mf-map/mf-manifest.json',
      mf_admin: 'https://cdn.example.ch/a/mf-manifest.json',
      other: '/x',
      mf_account: 3,
    };
    expect(parseRemoteManifestUrls(body, 'https://lakecams.example.ch/webcams')).toEqual({
      mf_map: 'https://lakecams.example.ch/remotes/mf-map/mf-manifest.json',
      mf_admin: 'https://cdn.example.ch/a/mf-manifest.json',
    });
  });

  it('answers nothing for a body that is no object', () => {
    expect(parseRemoteManifestUrls(null, 'https://x.ch/')).toEqual({});
    expect(parseRemoteManifestUrls('mf_map', 'https://x.ch/')).toEqual({});
  });
});

describe('loadRemoteLifecycles', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    document.body.innerHTML = '';
  });

  it('returns the remote lifecycles when the first load works', async () => {
    const loader = { load: vi.fn(async () => lifecycles), reset: vi.fn() };
    await expect(loadRemoteLifecycles('mf_map', loader, 0)).resolves.toBe(lifecycles);
    expect(loader.reset).not.toHaveBeenCalled();
  });

  it('resets and retries once after a failure', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const load = vi.fn().mockRejectedValueOnce(new Error('network')).mockResolvedValueOnce(lifecycles);
    const loader = { load, reset: vi.fn() };
    await expect(loadRemoteLifecycles('mf_map', loader, 0)).resolves.toBe(lifecycles);
    expect(loader.reset).toHaveBeenCalledTimes(1);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('after a second failure mounts a visible message into the remote container', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const load = vi.fn(async () => {
      throw new Error('network');
    });
    const fallback = await loadRemoteLifecycles('mf_admin', { load, reset: () => {} }, 0);
    expect(load).toHaveBeenCalledTimes(2);

    const props = { name: 'mf_admin', domElementGetter: () => remoteContainer('mf_admin') };
    await (fallback.mount as unknown as (p: typeof props) => Promise<void>)(props);
    await vi.waitFor(() => expect(remoteContainer('mf_admin').textContent).toContain('nicht verfügbar'));
    expect(remoteContainer('mf_admin').querySelector('[role="alert"]')).not.toBeNull();

    await (fallback.unmount as unknown as (p: typeof props) => Promise<void>)(props);
    expect(remoteContainer('mf_admin').textContent).toBe('');
  });

  it('treats a module without lifecycles as a failure', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const loader = { load: vi.fn(async () => ({ default: 'nope' })), reset: vi.fn() };
    const result = await loadRemoteLifecycles('mf_map', loader, 0);
    expect(result).not.toHaveProperty('default');
    expect(loader.load).toHaveBeenCalledTimes(2);
  });
});
