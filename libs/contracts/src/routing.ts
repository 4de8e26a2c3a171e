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

/** Micro-frontends: Module Federation name, folder, and the page routes each one mounts. */
export const REMOTES = [
  {
    name: 'mf_map',
    folder: 'mf-map',
    routes: ['', 'webcam/:name', 'webcams', 'referes-list', 'datenschutz', 'bestof'],
  },
  {
    name: 'mf_account',
    folder: 'mf-account',
    routes: ['login', 'register', 'confirmRegistration', 'resetPassword', 'user', 'contact'],
  },
  {
    name: 'mf_admin',
    folder: 'mf-admin',
    routes: ['jobs', 'edit/webcams', 'edit/referers', 'edit/referer/cameras', 'edit/codes', 'impersonate'],
  },
] as const;
export type RemoteName = (typeof REMOTES)[number]['name'];

export const SITE_NAME = 'Seecam Zürichsee';

/**
 * What the gateway writes into a page's HTML as `<script type="application/json" id="…">`, so the page's code
 * starts with it instead of asking for it: `/remotes.json` on every page, `/config.json` and the camera list
 * (`GET /api/Webcam/GetImages`) on the pages that show the cameras.
 */
export const PAGE_DATA_IDS = {
  remoteManifests: 'remote-manifests',
  pageConfig: 'page-config',
  cameraList: 'camera-list',
} as const;

/** The pages whose HTML carries the camera list and the page settings (the map and the list of all cameras). */
export const CAMERA_LIST_PAGES: readonly string[] = ['/', '/webcams'];

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
