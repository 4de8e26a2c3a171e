import { SERVER_RENDERED_ATTRIBUTE } from '@lakecams/contracts';
import { exposeSharedInstances } from '@lakecams/session';
import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';

export interface RemoteLifecycleOptions {
  /** Loads what the first render of the page at `pathname` needs before it hydrates (a lazy page's code). */
  beforeHydrate?: (pathname: string) => Promise<void>;
}

/**
 * Whether the container holds the gateway's rendering of the page now open, which the first mount then hydrates.
 * The mark is taken away either way: later mounts render anew. A rendering of another page (the visitor went on
 * before the remote arrived) is dropped.
 */
function takeServerRendering(container: HTMLElement | undefined): boolean {
  const renderedAt = container?.getAttribute(SERVER_RENDERED_ATTRIBUTE);
  if (!container || renderedAt === null || renderedAt === undefined) return false;
  container.removeAttribute(SERVER_RENDERED_ATTRIBUTE);
  if (renderedAt === window.location.pathname) return true;
  container.replaceChildren();
  return false;
}

/**
 * React DOM whose `hydrateRoot` works in a transition: time-sliced, yielding to the browser, so taking a
 * server-rendered page over makes no long task on a slow phone (the page is painted already).
 */
const hydratingInTransition: typeof ReactDOMClient = {
  ...ReactDOMClient,
  hydrateRoot: (container, children, options) => {
    let root: ReactDOMClient.Root | undefined;
    React.startTransition(() => {
      root = ReactDOMClient.hydrateRoot(container, children, options);
    });
    return root as ReactDOMClient.Root;
  },
};

/**
 * single-spa lifecycles of a remote whose root is a React component. A page the gateway rendered on the server
 * (docs/decisions.md, "Pages rendered on the server") is hydrated on the first mount, not rendered again.
 */
export function remoteLifecycles(
  name: string,
  rootComponent: React.FunctionComponent,
  options: RemoteLifecycleOptions = {},
) {
  let renderType: 'createRoot' | 'hydrateRoot' = 'createRoot';
  const lifecycles = singleSpaReact({
    React,
    ReactDOMClient: hydratingInTransition,
    rootComponent,
    // The shell passes the error boundary and the container as custom props.
    suppressComponentDidCatchWarning: true,
    // Read by the mount below, which sets it first.
    renderType: () => renderType,
  });
  const mount: typeof lifecycles.mount = async (props) => {
    exposeSharedInstances(name, React.useState);
    const container = (props as { domElementGetter?: () => HTMLElement }).domElementGetter?.();
    renderType = 'createRoot';
    if (takeServerRendering(container)) {
      const pathname = window.location.pathname;
      const ready = await (options.beforeHydrate?.(pathname) ?? Promise.resolve()).then(
        () => true,
        () => false,
      );
      // The visitor may have gone on while the page's code loaded: then its rendering is of no use. Code that
      // failed to load fails again in the new render, which shows why.
      if (ready && window.location.pathname === pathname) renderType = 'hydrateRoot';
      else container?.replaceChildren();
    }
    return lifecycles.mount(props);
  };
  return { bootstrap: lifecycles.bootstrap, mount, unmount: lifecycles.unmount };
}
