import { DEV_REMOTE_COOKIE, REMOTES, type RemoteName } from '@lakecams/contracts';

/**
 * A developer's switch for one browser: remotes loaded from a dev server instead of what /remotes.json names,
 * kept in this browser's localStorage as `{ "mf_map": "<URL of its mf-manifest.json>" }`. Nobody else's page changes.
 */
export const REMOTE_OVERRIDES_KEY = 'lakecams.remoteOverrides';

/** `?devRemote=mf-map@http://localhost:3101/mf-manifest.json` stores an override (scripts/dev.ts prints it); `?devRemote=off` clears them. */
export const DEV_REMOTE_PARAM = 'devRemote';
export const CLEAR_VALUE = 'off';

/** Where an override may load code from without the portal's say: this machine, i.e. the developer's own dev server. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

export type RemoteOverrides = Partial<Record<RemoteName, string>>;

/** A remote by its federation name (`mf_map`) or its folder (`mf-map`). */
export function remoteNamed(nameOrFolder: string): RemoteName | undefined {
  return REMOTES.find((remote) => remote.name === nameOrFolder || remote.folder === nameOrFolder)?.name;
}

/** One `devRemote` value: `<remote>@<manifest URL>`, or `off`. Anything else is ignored. */
export function parseDevRemoteParam(value: string): { name: RemoteName; url: string } | 'clear' | null {
  if (value === CLEAR_VALUE || value === '') return 'clear';
  const at = value.indexOf('@');
  const name = at > 0 ? remoteNamed(value.slice(0, at)) : undefined;
  const url = value.slice(at + 1);
  return name && URL.canParse(url) ? { name, url } : null;
}

/** The stored overrides, keeping only known remotes with a string URL (the storage is the user's to edit). */
export function parseStoredOverrides(raw: string | null): RemoteOverrides {
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return {};
  }
  const overrides: RemoteOverrides = {};
  if (typeof parsed !== 'object' || parsed === null) return overrides;
  for (const [key, url] of Object.entries(parsed)) {
    const name = remoteNamed(key);
    if (name && typeof url === 'string' && URL.canParse(url)) overrides[name] = url;
  }
  return overrides;
}

/** Whether code may be loaded from `url`: http(s) on this machine, or an origin the portal lists (`DEV_REMOTE_ORIGINS`). */
export function isAllowedOverrideUrl(url: string, allowedOrigins: readonly string[] = []): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (parsed.username || parsed.password) return false;
  return LOOPBACK_HOSTS.includes(parsed.hostname) || allowedOrigins.includes(parsed.origin);
}

/** Splits overrides into those the page uses and those it refuses. */
export function allowedOverrides(
  overrides: RemoteOverrides,
  allowedOrigins: readonly string[] = [],
): { allowed: RemoteOverrides; refused: RemoteOverrides } {
  const allowed: RemoteOverrides = {};
  const refused: RemoteOverrides = {};
  for (const [name, url] of Object.entries(overrides) as [RemoteName, string][]) {
    (isAllowedOverrideUrl(url, allowedOrigins) ? allowed : refused)[name] = url;
  }
  return { allowed, refused };
}

/** The overrides after following the page's `devRemote` parameters, in order, on top of the stored ones. */
export function overridesAfterLink(stored: RemoteOverrides, params: readonly string[]): RemoteOverrides {
  let overrides = { ...stored };
  for (const value of params) {
    const parsed = parseDevRemoteParam(value);
    if (parsed === 'clear') overrides = {};
    else if (parsed) overrides[parsed.name] = parsed.url;
  }
  return overrides;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    // Storage blocked by the browser's settings: no overrides, like any visitor.
    return null;
  }
}

function storedOverrides(): RemoteOverrides {
  return parseStoredOverrides(storage()?.getItem(REMOTE_OVERRIDES_KEY) ?? null);
}

function keepOverrides(overrides: RemoteOverrides): void {
  const store = storage();
  if (Object.keys(overrides).length === 0) store?.removeItem(REMOTE_OVERRIDES_KEY);
  else store?.setItem(REMOTE_OVERRIDES_KEY, JSON.stringify(overrides));
}

/**
 * This browser's overrides with what a `?devRemote=` link says applied, the parameter taken out of the address
 * (so a reload or a shared link does not set it again). They are kept only once accepted (`usableOverrides`).
 * Runs before any remote is registered.
 */
export function storedOverridesFollowingLink(): RemoteOverrides {
  if (!storage()) return {};
  const stored = storedOverrides();
  const url = new URL(window.location.href);
  const params = url.searchParams.getAll(DEV_REMOTE_PARAM);
  if (params.length === 0) return stored;
  url.searchParams.delete(DEV_REMOTE_PARAM);
  window.history.replaceState(window.history.state, '', url);
  return overridesAfterLink(stored, params);
}

/** Tells the portal this browser loads remotes from a dev server, so its pages' policy allows them (gateway). */
export function markDevBrowser(on: boolean): void {
  const marked = document.cookie.split(';').some((part) => part.trim().startsWith(`${DEV_REMOTE_COOKIE}=`));
  // biome-ignore lint/suspicious/noDocumentCookie: a plain flag; the Cookie Store API is not in every browser yet.
  if (on && !marked) document.cookie = `${DEV_REMOTE_COOKIE}=1; path=/; SameSite=Strict`;
  // biome-ignore lint/suspicious/noDocumentCookie: as above.
  if (!on && marked) document.cookie = `${DEV_REMOTE_COOKIE}=; path=/; SameSite=Strict; max-age=0`;
}

export function clearOverrides(): void {
  storage()?.removeItem(REMOTE_OVERRIDES_KEY);
}

/** Origins besides this machine the portal allows overrides from (`devRemoteOrigins` of /config.json); unknown without an answer. */
async function portalAllowedOrigins(): Promise<string[] | undefined> {
  try {
    const response = await fetch('/config.json');
    if (!response.ok) return undefined;
    const body = (await response.json()) as { devRemoteOrigins?: unknown };
    return Array.isArray(body.devRemoteOrigins) ? body.devRemoteOrigins.filter((o) => typeof o === 'string') : [];
  } catch {
    return undefined;
  }
}

/**
 * The overrides this page uses, which are all this browser keeps: a refused one is named once and forgotten, so it
 * cannot start working should the portal allow its origin later. Asks the portal only when one names an origin
 * other than this machine; without an answer, the kept ones stay for the next page.
 */
export async function usableOverrides(overrides: RemoteOverrides): Promise<RemoteOverrides> {
  const first = allowedOverrides(overrides);
  const origins = Object.keys(first.refused).length === 0 ? [] : await portalAllowedOrigins();
  const { allowed, refused } = origins ? allowedOverrides(overrides, origins) : first;
  keepOverrides(origins ? allowed : { ...storedOverrides(), ...allowed });
  markDevBrowser(Object.keys(allowed).length > 0);
  if (Object.keys(overrides).length === 0) return {};
  for (const [name, url] of Object.entries(refused)) {
    console.warn(`Refused to load ${name} from ${url}: only this machine or DEV_REMOTE_ORIGINS may serve a remote`);
  }
  showOverrideBanner(allowed, refused);
  return allowed;
}

/** Always visible while an override is stored, so a developer never forgets this browser runs other code. */
export function showOverrideBanner(allowed: RemoteOverrides, refused: RemoteOverrides): void {
  const lines = [
    ...Object.entries(allowed).map(([name, url]) => `${name} von ${url}`),
    ...Object.entries(refused).map(([name, url]) => `${name} von ${url} abgelehnt`),
  ];
  if (lines.length === 0) return;
  const banner = document.createElement('div');
  banner.id = 'dev-remote-banner';
  banner.setAttribute('role', 'status');
  banner.style.cssText =
    'position:fixed;inset:auto 0 0 0;z-index:2147483647;display:flex;gap:1em;align-items:center;' +
    'justify-content:center;padding:.4em 1em;background:#7a1f00;color:#fff;font:14px/1.4 system-ui,sans-serif';
  const text = document.createElement('span');
  text.textContent = `Entwicklungsmodus in diesem Browser: ${lines.join(', ')}`;
  const clear = document.createElement('button');
  clear.type = 'button';
  clear.textContent = 'Zurücksetzen';
  clear.addEventListener('click', () => {
    clearOverrides();
    window.location.reload();
  });
  banner.append(text, clear);
  document.body.append(banner);
}
