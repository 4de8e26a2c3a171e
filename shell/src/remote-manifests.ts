import { PAGE_DATA_IDS, REMOTES, type RemoteName } from '@lakecams/contracts';
import { takePageData } from '@lakecams/ui-kit/page-data';
import { getInstance, preloadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { type RemoteOverrides, usableOverrides } from './remote-overrides.ts';
import { matchRoute } from './routes.ts';

/** What every remote exposes (REMOTE_APP_MODULE in libs/mf-config, a build-time package). */
export const REMOTE_APP = 'app';

/** Served by the gateway: `{ "<mf name>": "<URL of its mf-manifest.json>" }`, also inline in each page. */
export const REMOTE_MANIFESTS_URL = '/remotes.json';

export type RemoteManifestUrls = Partial<Record<RemoteName, string>>;

/** Keeps the known remotes with a string URL, made absolute against the page. */
export function parseRemoteManifestUrls(body: unknown, base: string): RemoteManifestUrls {
  const urls: RemoteManifestUrls = {};
  if (typeof body !== 'object' || body === null) return urls;
  for (const { name } of REMOTES) {
    const url: unknown = (body as Record<string, unknown>)[name];
    if (typeof url === 'string' && url !== '') urls[name] = new URL(url, base).href;
  }
  return urls;
}

/** From the page's HTML, where the gateway puts them; asked for only when it did not. */
export async function fetchRemoteManifestUrls(): Promise<RemoteManifestUrls> {
  const inline = takePageData<unknown>(PAGE_DATA_IDS.remoteManifests);
  if (inline !== undefined) return parseRemoteManifestUrls(inline, window.location.href);
  const response = await fetch(REMOTE_MANIFESTS_URL);
  if (!response.ok) throw new Error(`${REMOTE_MANIFESTS_URL} answered ${response.status}`);
  return parseRemoteManifestUrls(await response.json(), window.location.href);
}

/** Fetches the open page's remote (manifest, remoteEntry.js, its ./app chunks) for single-spa's load of it. */
function preloadRemoteOf(pathname: string, urls: RemoteManifestUrls): void {
  const remote = matchRoute(pathname)?.remote;
  if (!remote || !urls[remote]) return;
  // share: false: the shell provides the shared singletons, so the remote's own copies would be wasted bytes.
  preloadRemote([{ nameOrAlias: remote, exposes: [`./${REMOTE_APP}`], share: false }]).catch((error: unknown) =>
    // Not fatal: single-spa's load of the remote retries and shows the failure.
    console.warn(`Preloading ${remote} failed`, error),
  );
}

let registration: Promise<RemoteManifestUrls> | undefined;

/**
 * Reads /remotes.json once, lays this browser's allowed overrides (remote-overrides.ts) over it, registers every
 * remote with the federation runtime and preloads the remote of the open page. Runs in the entry chunk, while
 * React DOM is on its way.
 */
export function registerRemotesOnce(overrides: RemoteOverrides = {}): Promise<RemoteManifestUrls> {
  registration ??= Promise.all([
    fetchRemoteManifestUrls().catch((error: unknown) => {
      // Registered anyway by the shell: each remote's route then shows the failure message.
      console.error('Could not read the remote manifests', error);
      return {};
    }),
    usableOverrides(overrides),
  ]).then(([published, dev]) => {
    const urls: RemoteManifestUrls = { ...published, ...dev };
    const remotes = Object.entries(urls).map(([name, entry]) => ({ name, entry }));
    // A dev remote's React (a development build, which React Refresh needs) must win the share scope: its entry is
    // loaded with the others before the shell takes React. Other pages load only the entries of what they show.
    if (Object.keys(dev).length > 0) {
      const federation = getInstance();
      federation?.initOptions({ name: federation.name, remotes: [], shareStrategy: 'version-first' });
    }
    if (remotes.length > 0) registerRemotes(remotes);
    preloadRemoteOf(window.location.pathname, urls);
    return urls;
  });
  return registration;
}
