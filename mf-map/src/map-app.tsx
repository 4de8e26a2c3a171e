import { BrowserRouter } from 'react-router';
import { MapRoutes } from './map-routes.tsx';
import { VARIANT_LABEL } from './variant.ts';
import './map.css';

export function MapApp() {
  return (
    <BrowserRouter>
      <MapContent />
    </BrowserRouter>
  );
}

/** Below the router: what the server renders too (server.tsx), under its own. */
export function MapContent() {
  return (
    // Every mf-map style hangs below this class, so none leaks into the other remotes.
    <div className="mf-map">
      <MapRoutes />
      {VARIANT_LABEL && <p className="variant-label">Variant: {VARIANT_LABEL}</p>}
    </div>
  );
}
