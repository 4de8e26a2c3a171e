import { documentTitle, matchRoute } from './routes.ts';

/**
 * Sends paths of no route home (docs/product.md §3.2) and names the page. replaceState, not navigateToUrl's pushState:
 * a pushed redirect would trap the Back button on the unknown path.
 */
export function syncPageWithPath(): void {
  if (!matchRoute(window.location.pathname)) {
    // single-spa's patched replaceState reroutes and fires a routing event, which lands here again.
    window.history.replaceState(window.history.state, '', '/');
    return;
  }
  document.title = documentTitle(window.location.pathname);
}

export function followNavigation(): void {
  syncPageWithPath();
  window.addEventListener('single-spa:routing-event', syncPageWithPath);
}
