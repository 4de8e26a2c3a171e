import { matchPageRoute, type PageRoute, type PageRouteMatch, type RemoteName, SITE_NAME } from '@lakecams/contracts';

/** A page route as written in REMOTES: '' is home, `:x` is a parameter. */
export type RoutePath = PageRoute;
export type RouteParams = Record<string, string>;

type PageTitle = string | null | ((params: RouteParams) => string);

/** The part after "<site name> – "; null means the site name alone. Typed so no route can be missing. */
export const PAGE_TITLES: Readonly<Record<RoutePath, PageTitle>> = {
  '': null,
  'webcam/:name': (params) => params.name ?? '',
  webcams: 'Alle Webcams',
  'referes-list': 'Preise und Referenzen',
  datenschutz: 'Datenschutz',
  bestof: 'Bilder des Tages',
  login: 'Anmelden',
  register: 'Registrieren',
  confirmRegistration: 'Registrierung bestätigen',
  resetPassword: 'Passwort zurücksetzen',
  user: 'Mein Profil',
  contact: 'Kontakt',
  jobs: 'Jobs',
  'edit/webcams': 'Webcams bearbeiten',
  'edit/referers': 'Referer bearbeiten',
  'edit/referer/cameras': 'Kamera-Einrichtung',
  'edit/codes': 'Codes verwalten',
  impersonate: 'Benutzer vertreten',
};

export type RouteMatch = PageRouteMatch;

/** Which remote owns a path, and with which parameters; null for a path of no route. */
export const matchRoute: (pathname: string) => RouteMatch | null = matchPageRoute;

/** single-spa activity function for a remote. */
export function activeWhenFor(remote: RemoteName): (location: Location) => boolean {
  return (location) => matchRoute(location.pathname)?.remote === remote;
}

/** "<site name> – <page title>", or the site name alone on home and unknown paths (docs/product.md §3.1). */
export function documentTitle(pathname: string): string {
  const match = matchRoute(pathname);
  const title = match ? PAGE_TITLES[match.route] : null;
  const text = typeof title === 'function' ? title(match?.params ?? {}) : title;
  return text ? `${SITE_NAME} – ${text}` : SITE_NAME;
}
