import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener('single-spa:routing-event', onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener('single-spa:routing-event', onChange);
  };
}

/** The current path, kept fresh by single-spa's routing events (it patches pushState to fire popstate). */
export function useLocationPath(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname);
}
