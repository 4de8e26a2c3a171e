import { BrowserRouter } from 'react-router';
import { MapRoutes } from './map-routes.tsx';
import { VARIANT_LABEL } from './variant.ts';
import './map.css';

export function MapApp() {
  return (
    <BrowserRouter>
      {/* Every mf-map style hangs below this class, so none leaks into the other remotes. */}
      <div className="mf-map">
        <MapRoutes />
        {VARIANT_LABEL && <p className="variant-label">Variant: {VARIANT_LABEL}</p>}
      </div>
    </BrowserRouter>
  );
}
