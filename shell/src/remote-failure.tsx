import { type ReactElement, useEffect } from 'react';
import type { CustomProps, LifeCycles } from 'single-spa';
import { removeFirstView } from './first-view.ts';
import { reactLifecycles } from './react-lifecycles.ts';

export function RemoteFailure() {
  // A camera page's first view would otherwise keep this message hidden.
  useEffect(removeFirstView, []);
  return (
    <section className="remote-failure" role="alert">
      <h1>Dieser Bereich ist gerade nicht verfügbar</h1>
      <p>Bitte laden Sie die Seite neu oder versuchen Sie es später noch einmal.</p>
      <button type="button" onClick={() => window.location.reload()}>
        Seite neu laden
      </button>
    </section>
  );
}

/** single-spa-react's errorBoundary: a remote that throws while rendering shows the same message. */
export function renderRemoteFailure(): ReactElement {
  return <RemoteFailure />;
}

/**
 * Stand-in for a remote that could not be loaded: its route shows a message, not a blank page (docs/product.md §3.9).
 */
export function failureLifecycles(): LifeCycles<CustomProps> {
  return reactLifecycles((props) => (props.domElementGetter as () => HTMLElement)(), <RemoteFailure />);
}
