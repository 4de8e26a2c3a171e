/** Which service owns which `/api/<Controller>`, and `/pictures/` (README.md, "Run modes"). */
export const SERVICES = ['identity', 'webcam', 'referer', 'imaging'] as const;
export type ServiceName = (typeof SERVICES)[number];

export const CONTROLLER_OWNERS: Readonly<Record<string, ServiceName>> = {
  Authenticate: 'identity',
  Register: 'identity',
  RegisterConfirm: 'identity',
  Code: 'identity',
  Contact: 'identity',
  Captcha: 'identity',
  Webcam: 'webcam',
  News: 'webcam',
  Referer: 'referer',
  Image: 'imaging',
  Jobs: 'imaging',
};

/** A picture's bytes by their immutable name, outside `/api` so that no API cookie goes along (svc-imaging). */
export const PICTURE_PATH_PREFIX = '/pictures/';

/**
 * Set by the shell while this browser loads a remote from a dev server (`?devRemote=`): the gateway's page policy
 * then also allows the developer's machine and `DEV_REMOTE_ORIGINS`, for this browser only.
 */
export const DEV_REMOTE_COOKIE = 'lakecams_dev_remote';

/** The service owning an `/api/...` or `/pictures/...` path, or undefined for an unknown controller. */
export function ownerOfApiPath(path: string): ServiceName | undefined {
  if (path.startsWith(PICTURE_PATH_PREFIX)) return 'imaging';
  const controller = /^\/api\/([^/?#]+)/.exec(path)?.[1];
  return controller && Object.hasOwn(CONTROLLER_OWNERS, controller) ? CONTROLLER_OWNERS[controller] : undefined;
}

/**
 * Every page of the portal, once: its route ('' is home, `:x` a parameter), the remote that mounts it, and its title,
 * the part after "<site name> – " (null: the site name alone; `:x`: the route's parameter). The shell mounts remotes
 * and names pages by it, each remote's `<Routes>` takes its routes from it (checked by the remote's route test), and
 * the gateway renders first views by it.
 */
export const PAGE_ROUTES = [
  { route: '', remote: 'mf_map', title: null },
  { route: 'webcam/:name', remote: 'mf_map', title: ':name' },
  { route: 'webcams', remote: 'mf_map', title: 'Alle Webcams' },
  { route: 'referes-list', remote: 'mf_map', title: 'Preise und Referenzen' },
  { route: 'datenschutz', remote: 'mf_map', title: 'Datenschutz' },
  { route: 'bestof', remote: 'mf_map', title: 'Bilder des Tages' },
  { route: 'login', remote: 'mf_account', title: 'Anmelden' },
  { route: 'register', remote: 'mf_account', title: 'Registrieren' },
  { route: 'confirmRegistration', remote: 'mf_account', title: 'Registrierung bestätigen' },
  { route: 'resetPassword', remote: 'mf_account', title: 'Passwort zurücksetzen' },
  { route: 'user', remote: 'mf_account', title: 'Mein Profil' },
  { route: 'contact', remote: 'mf_account', title: 'Kontakt' },
  { route: 'jobs', remote: 'mf_admin', title: 'Jobs' },
  { route: 'edit/webcams', remote: 'mf_admin', title: 'Webcams bearbeiten' },
  { route: 'edit/referers', remote: 'mf_admin', title: 'Referer bearbeiten' },
  { route: 'edit/referer/cameras', remote: 'mf_admin', title: 'Kamera-Einrichtung' },
  { route: 'edit/codes', remote: 'mf_admin', title: 'Codes verwalten' },
  { route: 'impersonate', remote: 'mf_admin', title: 'Benutzer vertreten' },
] as const;

type PageEntry = (typeof PAGE_ROUTES)[number];

/** A page route as written in PAGE_ROUTES: '' is home, `:x` is a parameter. */
export type PageRoute = PageEntry['route'];

/** The routes of one remote, as a type: a record keyed by it must name each of them, and nothing else. */
export type RoutesOf<Remote extends PageEntry['remote']> = Extract<PageEntry, { remote: Remote }>['route'];

/** The routes of one remote, in the order of PAGE_ROUTES. */
export function routesOf<Remote extends PageEntry['remote']>(remote: Remote): readonly RoutesOf<Remote>[] {
  return PAGE_ROUTES.filter((page) => page.remote === remote).map((page) => page.route as RoutesOf<Remote>);
}

/** A page's title after "<site name> – ", with its parameters filled in; null for the site name alone. */
export function pageTitle(route: PageRoute, params: Readonly<Record<string, string>> = {}): string | null {
  const title = PAGE_ROUTES.find((page) => page.route === route)?.title ?? null;
  return title?.startsWith(':') ? (params[title.slice(1)] ?? '') : title;
}

/** Micro-frontends: Module Federation name, folder, and the page routes each one mounts (from PAGE_ROUTES). */
export const REMOTES = [
  { name: 'mf_map', folder: 'mf-map', routes: routesOf('mf_map') },
  { name: 'mf_account', folder: 'mf-account', routes: routesOf('mf_account') },
  { name: 'mf_admin', folder: 'mf-admin', routes: routesOf('mf_admin') },
] as const;
export type RemoteName = (typeof REMOTES)[number]['name'];

export interface PageRouteMatch {
  remote: RemoteName;
  route: PageRoute;
  params: Record<string, string>;
}

interface CompiledRoute {
  remote: RemoteName;
  route: PageRoute;
  pattern: RegExp;
  paramNames: string[];
}

function compileRoute(remote: RemoteName, route: PageRoute): CompiledRoute {
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

const COMPILED_ROUTES: readonly CompiledRoute[] = PAGE_ROUTES.map((page) => compileRoute(page.remote, page.route));

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Which remote owns a page's path, and with which parameters; null for a path of no route. The shell mounts the
 * remote by it, the gateway renders the page's first view on the server by it.
 */
export function matchPageRoute(pathname: string): PageRouteMatch | null {
  for (const compiled of COMPILED_ROUTES) {
    const found = compiled.pattern.exec(pathname);
    if (!found) continue;
    const params: Record<string, string> = {};
    compiled.paramNames.forEach((name, index) => {
      params[name] = decodeSegment(found[index + 1] ?? '');
    });
    return { remote: compiled.remote, route: compiled.route, params };
  }
  return null;
}

export const SITE_NAME = 'Seecam Zürichsee';

/**
 * What the gateway writes into a page's HTML as `<script type="application/json" id="…">`, so the page's code
 * starts with it instead of asking for it: `/remotes.json`, the news text and the moment the page was made on
 * every page, `/config.json` and the camera list (`GET /api/Webcam/GetImages`) on the pages that show the cameras.
 */
export const PAGE_DATA_IDS = {
  remoteManifests: 'remote-manifests',
  news: 'news',
  /** Milliseconds since the epoch when the server rendered the page: picture ages read the same when hydrated. */
  renderedAt: 'rendered-at',
  pageConfig: 'page-config',
  cameraList: 'camera-list',
  /** Public GET answers a page's first view shows, by the path and query asked (PAGE_START_CALLS). */
  answers: 'api-answers',
} as const;

/** The pages whose HTML carries the camera list and the page settings (the map and the list of all cameras). */
export const CAMERA_LIST_PAGES: readonly string[] = ['/', '/webcams'];

export const BEST_OF_DAY_PATH = '/api/Webcam/GetBestOfDay';
export const PAGES_USING_SERVICE_PATH = '/api/Referer/GetPagesUses/PageUser';

/** `GetBestOfDay` for the day `/bestof?tag=…` asks for (today when none or none valid). */
export function bestOfDayCall(day: string | undefined): string {
  return day ? `${BEST_OF_DAY_PATH}?${new URLSearchParams({ day })}` : BEST_OF_DAY_PATH;
}

/** `?tag=2026-11-22` of /bestof, when it names a day of the calendar. */
export function bestOfDayOf(search: URLSearchParams): string | undefined {
  const day = search.get('tag');
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const date = new Date(`${day}T12:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day ? day : undefined;
}

/**
 * The anonymous GET calls whose answers the gateway writes into a page (PAGE_DATA_IDS.answers), so its first view
 * shows them at once, on the server as in the browser; by route of PAGE_ROUTES.
 */
export const PAGE_START_CALLS: Partial<Record<PageRoute, (search: URLSearchParams) => string[]>> = {
  bestof: (search) => [bestOfDayCall(bestOfDayOf(search))],
  'referes-list': () => [PAGES_USING_SERVICE_PATH],
};

/** A camera's public page, `webcam/{name}`. */
export function cameraPath(name: string): string {
  return `/webcam/${encodeURIComponent(name)}`;
}

/** A camera page's keywords from its name: `Rapperswil-Seedamm` → `Rapperswil-Seedamm, Rapperswil, Seedamm, Webcam, …`. */
export function cameraKeywords(name: string): string {
  const words = [name, ...name.split(/[-_\s]+/), 'Webcam', 'Zürichsee', SITE_NAME].filter((word) => word !== '');
  return [...new Set(words)].join(', ');
}
/** What the site is, in a sentence: page description, share previews, app manifest. */
export const SITE_DESCRIPTION =
  'Aktuelle Bilder der Webcams rund um den Zürichsee, auf der Karte und in der Liste, alle paar Minuten neu.';
/** The page's colour: browser bar, installed app. */
export const THEME_COLOR = '#0b5c8c';

/** One of the data blocks of PAGE_DATA_IDS. */
export type PageDataId = (typeof PAGE_DATA_IDS)[keyof typeof PAGE_DATA_IDS];
/** What the gateway hands a page's server render: the same blocks it writes into the page's HTML, by id. */
export type PageData = Partial<Record<PageDataId, unknown>>;

/**
 * A remote's server build (docs/decisions.md, "Pages rendered on the server"): an ES module at this path beside its
 * `mf-manifest.json`, exporting `render`. It imports React, React DOM and react-router from the gateway, which puts
 * them into `globalThis[SERVER_SHARED_GLOBAL]` under these names before loading it: one copy of each in the process,
 * at the versions the whole repository uses.
 */
export const SERVER_RENDER_FILE = 'server/render.mjs';
export const SERVER_SHARED_GLOBAL = '__lakecamsServerShared';
export const SERVER_SHARED_MODULES = [
  'react',
  'react/jsx-runtime',
  'react-dom',
  'react-dom/client',
  'react-dom/server',
  'react-router',
] as const;

/** The page's markup for `url` (path and query), or null when this remote does not render that page on the server. */
export type ServerRender = (url: string, data?: PageData) => string | null;

/** A server build may also export `chunks`: the browser chunks the page at `url` shows, whose stylesheets it needs. */
export type ServerChunks = (url: string) => string[];

/**
 * The shell's server build (SERVER_RENDER_FILE in its dist) exports `renderChrome`: header with news, and footer
 * with the cookie notice, as the chrome's first render in the browser shows them, for its two containers.
 */
export type ChromeRender = (
  path: string,
  data: PageData,
  visitor: { cookieNoticeAccepted: boolean },
) => { header: string; footer: string };

/** Set when the visitor accepts the cookie notice, so the server leaves it out of the next pages. */
export const COOKIE_NOTICE_COOKIE = 'lakecams_cookie_notice';
const COOKIE_NOTICE_ACCEPTED = `${COOKIE_NOTICE_COOKIE}=yes`;

/** Whether a `Cookie` header (or `document.cookie`) says the cookie notice was accepted. */
export const cookieNoticeAccepted = (cookies: string | undefined): boolean =>
  (cookies ?? '').split(/;\s*/).includes(COOKIE_NOTICE_ACCEPTED);

/** The cookie that remembers the acceptance for a year (`Secure` on an https page). */
export const cookieNoticeAcceptance = (secure: boolean): string =>
  `${COOKIE_NOTICE_ACCEPTED}; Path=/; Max-Age=31536000; SameSite=Lax${secure ? '; Secure' : ''}`;

/** The news text below the header (plain text), which the gateway also writes into each page. */
export const NEWS_PATH = '/api/News/News/news';

/**
 * On the container the gateway renders a remote's page into, the path it was rendered for: the remote hydrates it
 * on its first mount at that path, and renders anew anywhere else.
 */
export const SERVER_RENDERED_ATTRIBUTE = 'data-server-rendered';
