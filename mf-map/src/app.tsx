import { remoteLifecycles } from '@lakecams/ui-kit';
import { MapApp } from './map-app.tsx';
import { preloadHomeMap } from './map/map-panel.tsx';

// Home's map is its largest paint: fetch its code and settings while single-spa mounts the app.
if (typeof window !== 'undefined' && window.location.pathname === '/') preloadHomeMap();

export const { bootstrap, mount, unmount } = remoteLifecycles('mf_map', MapApp);
