import { useSyncExternalStore } from 'react';
import { useChromeServerState } from './chrome-server.ts';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener('single-spa:routing-event', onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener('single-spa:routing-event', onChange);
  };
}

/**
 * The current path, kept fresh by single-spa's routing events (it patches pushState to fire popstate); on the
 * server the path the page is rendered for, which is where the browser hydrates it.
 */
export function useLocationPath(): string {
  const server = useChromeServerState();
  return useSyncExternalStore(
    subscribe,
    () => window.location.pathname,
    () => server?.path ?? window.location.pathname,
  );
}
