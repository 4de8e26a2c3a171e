import { REMOTES, type RemoteName, SITE_NAME } from '@lakecams/contracts';

/** A page route as written in REMOTES: '' is home, `:x` is a parameter. */
export type RoutePath = (typeof REMOTES)[number]['routes'][number];
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

export interface RouteMatch {
  remote: RemoteName;
  route: RoutePath;
  params: RouteParams;
}

interface CompiledRoute {
  remote: RemoteName;
  route: RoutePath;
  pattern: RegExp;
  paramNames: string[];
}

function compile(remote: RemoteName, route: RoutePath): CompiledRoute {
  const paramNames: string[] = [];
  const segments = route === '' ? [] : route.split('/');
  const source = segments
    .map((segment) => {
      if (!segment.startsWith(':')) return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
      paramNames.push(segment.slice(1));
      return '/([^/]+)';
    })
    .join('');
  // Home is exactly "/"; every other route also matches with one trailing slash.
  const pattern = route === '' ? /^\/$/ : new RegExp(`^${source}/?$`);
  return { remote, route, pattern, paramNames };
}

const COMPILED_ROUTES: readonly CompiledRoute[] = REMOTES.flatMap((remote) =>
  remote.routes.map((route) => compile(remote.name, route)),
);

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Which remote owns a path, and with which parameters; null for a path of no route. */
export function matchRoute(pathname: string): RouteMatch | null {
  for (const compiled of COMPILED_ROUTES) {
    const found = compiled.pattern.exec(pathname);
    if (!found) continue;
    const params: RouteParams = {};
    compiled.paramNames.forEach((name, index) => {
      params[name] = decodeSegment(found[index + 1] ?? '');
    });
    return { remote: compiled.remote, route: compiled.route, params };
  }
  return null;
}

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
