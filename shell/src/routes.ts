import { matchPageRoute, type PageRouteMatch, pageTitle, type RemoteName, SITE_NAME } from '@lakecams/contracts';

export type RouteMatch = PageRouteMatch;

/** Which remote owns a path, and with which parameters; null for a path of no route. */
export const matchRoute: (pathname: string) => RouteMatch | null = matchPageRoute;

/** single-spa activity function for a remote. */
export function activeWhenFor(remote: RemoteName): (location: Location) => boolean {
  return (location) => matchRoute(location.pathname)?.remote === remote;
}

/**
 * "<site name> – <page title>", or the site name alone on home and unknown paths (docs/product.md §3.1); the titles
 * are PAGE_ROUTES' (libs/contracts).
 */
export function documentTitle(pathname: string): string {
  const match = matchRoute(pathname);
  const text = match ? pageTitle(match.route, match.params) : null;
  return text ? `${SITE_NAME} – ${text}` : SITE_NAME;
}
