import { preloadServerPage, remoteLifecycles } from '@lakecams/ui-kit';
import { MapApp } from './map-app.tsx';
import { SERVER_PAGES } from './map-routes.tsx';

// Home's map paints from the page's HTML (static-map.tsx); Leaflet's code comes when the live map is wanted.
export const { bootstrap, mount, unmount } = remoteLifecycles('mf_map', MapApp, {
  // A page rendered on the server hydrates with its code at hand, as the server rendered it.
  beforeHydrate: (pathname) => preloadServerPage(SERVER_PAGES, pathname),
});
