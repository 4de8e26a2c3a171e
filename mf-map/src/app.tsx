import { preloadServerPage, remoteLifecycles } from '@lakecams/ui-kit';
import { MapApp } from './map-app.tsx';
import { SERVER_PAGES } from './map-routes.tsx';
import { preloadHomeMap } from './map/map-panel.tsx';

// Home's map is its largest paint: fetch its code and settings while single-spa mounts the app.
if (typeof window !== 'undefined' && window.location.pathname === '/') preloadHomeMap();

export const { bootstrap, mount, unmount } = remoteLifecycles('mf_map', MapApp, {
  // A page rendered on the server hydrates with its code at hand, as the server rendered it.
  beforeHydrate: (pathname) => preloadServerPage(SERVER_PAGES, pathname),
});
