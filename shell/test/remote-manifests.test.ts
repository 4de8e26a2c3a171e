import { afterEach, describe, expect, it, vi } from 'vitest';

const runtime = vi.hoisted(() => {
  const federation = { name: 'shell', initOptions: vi.fn() };
  return {
    federation,
    getInstance: () => federation,
    registerRemotes: vi.fn(),
    preloadRemote: vi.fn(async () => {}),
  };
});
vi.mock('@module-federation/enhanced/runtime', () => runtime);

const REMOTES_JSON = { mf_map: '/remotes/mf-map/mf-manifest.json', mf_admin: '/remotes/mf-admin/mf-manifest.json' };

/** A fresh module each time: it reads /remotes.json once per page. */
async function registerAt(pathname: string, answer: Response) {
  window.history.replaceState(null, '', pathname);
  const fetch = vi.fn(async () => answer);
  vi.stubGlobal('fetch', fetch);
  vi.resetModules();
  const { registerRemotesOnce } = await import('../src/remote-manifests.ts');
  return { registerRemotesOnce, fetch };
}

describe('registerRemotesOnce', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    runtime.registerRemotes.mockClear();
    runtime.preloadRemote.mockClear();
  });

  it('registers every named remote and preloads only the open page’s, without its shared copies', async () => {
    const { registerRemotesOnce, fetch } = await registerAt('/webcam/Rapperswil', Response.json(REMOTES_JSON));
    const urls = await registerRemotesOnce();
    expect(await registerRemotesOnce()).toBe(urls);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledWith('/remotes.json');
    expect(runtime.registerRemotes).toHaveBeenCalledWith([
      { name: 'mf_map', entry: `${window.location.origin}/remotes/mf-map/mf-manifest.json` },
      { name: 'mf_admin', entry: `${window.location.origin}/remotes/mf-admin/mf-manifest.json` },
    ]);
    expect(runtime.preloadRemote).toHaveBeenCalledWith([{ nameOrAlias: 'mf_map', exposes: ['./app'], share: false }]);
  });

  it('reads the manifests from the page when the gateway put them there, once, without asking', async () => {
    const data = document.createElement('script');
    data.type = 'application/json';
    data.id = 'remote-manifests';
    data.textContent = JSON.stringify(REMOTES_JSON);
    document.head.append(data);
    const { registerRemotesOnce, fetch } = await registerAt('/webcams', Response.json({}));
    expect(await registerRemotesOnce()).toEqual({
      mf_map: `${window.location.origin}/remotes/mf-map/mf-manifest.json`,
      mf_admin: `${window.location.origin}/remotes/mf-admin/mf-manifest.json`,
    });
    expect(fetch).not.toHaveBeenCalled();
    expect(document.getElementById('remote-manifests')).toBeNull();
  });

  it('preloads nothing on a path of no route or of a remote /remotes.json does not name', async () => {
    for (const pathname of ['/gibt/es/nicht', '/login']) {
      const { registerRemotesOnce } = await registerAt(pathname, Response.json(REMOTES_JSON));
      await registerRemotesOnce();
    }
    expect(runtime.preloadRemote).not.toHaveBeenCalled();
  });

  it('answers no remotes when /remotes.json fails, so each route shows the failure message', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { registerRemotesOnce } = await registerAt('/', new Response('down', { status: 503 }));
    expect(await registerRemotesOnce()).toEqual({});
    expect(runtime.registerRemotes).not.toHaveBeenCalled();
    expect(runtime.preloadRemote).not.toHaveBeenCalled();
  });
});

describe('registerRemotesOnce with a dev remote', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    runtime.registerRemotes.mockClear();
    document.body.replaceChildren();
  });

  it('registers the override instead of what /remotes.json names for that remote', async () => {
    const { registerRemotesOnce } = await registerAt('/', Response.json(REMOTES_JSON));
    const dev = 'http://localhost:3101/mf-manifest.json';
    await registerRemotesOnce({ mf_map: dev });
    expect(runtime.registerRemotes).toHaveBeenCalledWith([
      { name: 'mf_map', entry: dev },
      { name: 'mf_admin', entry: `${window.location.origin}/remotes/mf-admin/mf-manifest.json` },
    ]);
    // The dev remote's React wins the share scope: every entry is loaded to compare.
    expect(runtime.federation.initOptions).toHaveBeenCalledWith(
      expect.objectContaining({ shareStrategy: 'version-first' }),
    );
  });

  it("loads only the entries of what a page shows, without a developer's remote", async () => {
    runtime.federation.initOptions.mockClear();
    const { registerRemotesOnce } = await registerAt('/', Response.json(REMOTES_JSON));
    await registerRemotesOnce();
    expect(runtime.federation.initOptions).not.toHaveBeenCalled();
  });
});
