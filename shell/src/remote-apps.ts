import { REMOTES, type RemoteName, SERVER_RENDERED_ATTRIBUTE } from '@lakecams/contracts';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { type LifeCycles, registerApplication } from 'single-spa';
import { failureLifecycles, renderRemoteFailure } from './remote-failure.tsx';
import { REMOTE_APP, REMOTE_MANIFESTS_URL, type RemoteManifestUrls } from './remote-manifests.ts';
import { activeWhenFor } from './routes.ts';

export interface RemoteLoader {
  load(): Promise<unknown>;
  /** Forget a failed attempt so the next load really fetches again. */
  reset(): void;
}

function asLifecycles(module: unknown, name: string): LifeCycles {
  const candidate = module as Partial<LifeCycles> | null;
  if (!candidate || typeof candidate.mount !== 'function' || typeof candidate.unmount !== 'function') {
    throw new Error(`${name} did not expose single-spa lifecycles as ./${REMOTE_APP}`);
  }
  return candidate as LifeCycles;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One retry, then a visible failure message in the remote's container instead of an empty page. */
export async function loadRemoteLifecycles(
  name: string,
  loader: RemoteLoader,
  retryDelayMs = 300,
): Promise<LifeCycles> {
  try {
    return asLifecycles(await loader.load(), name);
  } catch (firstError) {
    console.warn(`Loading ${name} failed, trying once more`, firstError);
  }
  try {
    await sleep(retryDelayMs);
    loader.reset();
    return asLifecycles(await loader.load(), name);
  } catch (error) {
    console.error(`Loading ${name} failed`, error);
    return failureLifecycles();
  }
}

function moduleFederationLoader(name: RemoteName, manifestUrl: string | undefined): RemoteLoader {
  return {
    load: () => {
      if (!manifestUrl) return Promise.reject(new Error(`${REMOTE_MANIFESTS_URL} names no manifest for ${name}`));
      return loadRemote(`${name}/${REMOTE_APP}`);
    },
    reset: () => {
      if (manifestUrl) registerRemotes([{ name, entry: manifestUrl }], { force: true });
    },
  };
}

/**
 * Each remote renders into its own container inside <main>, so unmounting one never touches another. The one the
 * gateway rendered the page into (gateway server-render.ts) is already there: the remote hydrates it.
 */
export function remoteContainer(name: RemoteName): HTMLElement {
  const id = `remote-${name}`;
  const existing = document.getElementById(id);
  if (existing) return existing;
  const container = document.createElement('div');
  container.id = id;
  container.className = 'remote-outlet';
  (document.getElementById('main') ?? document.body).append(container);
  return container;
}

/** Expects the remotes of `urls` registered with the federation runtime already (registerRemotesOnce). */
export function registerRemoteApplications(urls: RemoteManifestUrls): void {
  for (const { name } of REMOTES) {
    const loader = moduleFederationLoader(name, urls[name]);
    registerApplication({
      name,
      app: () => loadRemoteLifecycles(name, loader),
      activeWhen: activeWhenFor(name),
      // single-spa-react reads both from the props: the shell decides where and how failures show.
      customProps: { domElementGetter: () => remoteContainer(name), errorBoundary: renderRemoteFailure },
    });
  }
}

/**
 * A page the gateway rendered whose remote was not mounted yet when the visitor went on (it takes the mark when it
 * mounts) would stay beside the next page: its markup goes.
 */
export function dropServerRenderingOnLeave(): void {
  window.addEventListener('single-spa:before-routing-event', () => {
    for (const container of document.querySelectorAll<HTMLElement>(`[${SERVER_RENDERED_ATTRIBUTE}]`)) {
      if (container.getAttribute(SERVER_RENDERED_ATTRIBUTE) === window.location.pathname) continue;
      container.removeAttribute(SERVER_RENDERED_ATTRIBUTE);
      container.replaceChildren();
    }
  });
}
