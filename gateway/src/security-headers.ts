import { DEV_REMOTE_COOKIE, PICTURE_PATH_PREFIX } from '@lakecams/contracts';
import { randomBytes } from 'node:crypto';

/**
 * The headers every answer of the portal carries, and its Content-Security-Policy (docs/decisions.md, "Security
 * headers and the Content-Security-Policy"). Written once for the gateway and the shell's dev server.
 */

/** Where the page may load from besides its own origin. */
export interface PolicySources {
  /** Origins of remotes that `/remotes.json` names on other hosts (a CDN, a release elsewhere). */
  remotes: readonly string[];
  /** Origins of the map's tiles. */
  tiles: readonly string[];
  /** Where browsers fetch pictures when that is not the portal (`PICTURE_BASE_URL`: a cookie-less host, the edge). */
  pictures: readonly string[];
  /** Origins of a developer's remotes (dev servers): only for a browser that asked for one. */
  dev: readonly string[];
}

export const NO_SOURCES: PolicySources = { remotes: [], tiles: [], pictures: [], dev: [] };

/** A developer's own machine, where `npm run dev` serves remotes (shell remote-overrides.ts allows the same hosts). */
export const LOOPBACK_ORIGINS = ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'] as const;

/** The captcha's frames when reCAPTCHA is configured instead of ALTCHA. */
const RECAPTCHA_FRAMES = ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'];

export interface PolicyOptions {
  /** Scripts of the page itself carry this nonce; what they load is trusted in turn ('strict-dynamic'). */
  nonce?: string;
  /** Who may put the answer in a frame: nobody, or the portal's own pages. */
  frameAncestors?: "'none'" | "'self'";
}

/**
 * The policy: scripts only from the portal, its remotes and (with a nonce) what the page's own scripts load; no
 * inline script, no eval, no plugins, no `<base>`, forms only to the portal, framed by nobody.
 * Styles allow inline `style` (React and Leaflet position elements with it; it runs no code).
 */
export function contentSecurityPolicy(sources: PolicySources, options: PolicyOptions = {}): string {
  const code = ["'self'", ...sources.remotes, ...sources.dev];
  const scripts = options.nonce ? [`'nonce-${options.nonce}'`, "'strict-dynamic'", ...code] : code;
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', scripts],
    ['style-src', [...code, "'unsafe-inline'"]],
    ['img-src', [...code, ...sources.tiles, ...sources.pictures, 'data:', 'blob:']],
    ['font-src', code],
    ['connect-src', [...code, ...sources.pictures]],
    ['media-src', ["'self'", ...sources.pictures, 'blob:']],
    ['worker-src', ["'self'", 'blob:']],
    ['frame-src', ["'self'", ...RECAPTCHA_FRAMES]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', [options.frameAncestors ?? "'none'"]],
  ];
  return directives.map(([name, values]) => `${name} ${[...new Set(values)].join(' ')}`).join('; ');
}

/** A fresh nonce for one page answer. */
export const newNonce = () => randomBytes(16).toString('base64');

/** Every `<script` of a page with the answer's nonce (index.html's scripts are the build's, never a visitor's). */
export function withScriptNonce(html: string, nonce: string): string {
  return html.replace(/<script(?=[\s>])/gi, `<script nonce="${nonce}"`);
}

/** The origins of those URLs that are absolute and not on the page's own origin (relative ones are 'self'). */
export function foreignOrigins(urls: Iterable<string>): string[] {
  const origins = new Set<string>();
  for (const url of urls) {
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) continue;
    origins.add(new URL(url).origin);
  }
  return [...origins];
}

/** `https://{s}.tile.example/{z}/{x}/{y}.png` → `https://*.tile.example`; a relative template is the portal's own. */
export function tileOrigins(template: string): string[] {
  const match = /^(https?:)\/\/([^/?#]+)/i.exec(template);
  if (!match) return [];
  const host = (match[2] as string).replace(/\{[a-z]+\}/gi, '*');
  return [`${(match[1] as string).toLowerCase()}//${host.toLowerCase()}`];
}

/** Pictures and their tiles may be framed by a partner's page (docs/decisions.md); everything else by nobody. */
const FRAMEABLE_BY_ANYONE = [PICTURE_PATH_PREFIX, '/api/Image/Get/', '/api/Image/Zoom/', '/api/Image/Timelapse/'];
/** The job dashboard's document is framed by the portal's own /jobs page. */
const FRAMEABLE_BY_PORTAL = ['/api/Jobs/dashboard'];
/** The `<iframe>` form of the embedded player: a document of the portal's that any partner page frames. */
export const EMBED_FRAME_PREFIX = '/api/Image/Embed/';

export type Framing = 'anyone' | 'player' | 'portal' | 'nobody';

export function framingOf(path: string): Framing {
  if (path.startsWith(EMBED_FRAME_PREFIX)) return 'player';
  if (FRAMEABLE_BY_ANYONE.some((prefix) => path.startsWith(prefix))) return 'anyone';
  if (FRAMEABLE_BY_PORTAL.some((prefix) => path === prefix || path.startsWith(`${prefix}?`))) return 'portal';
  return 'nobody';
}

/**
 * The player's frame document: its script and what it asks for come from the portal (and the pictures' host),
 * any web page may frame it, and it frames, submits and plugs in nothing (docs/decisions.md, "The embedded
 * player's two forms"). Its styles sit in the player's shadow root and one `<style>` of the document.
 */
export function playerFramePolicy(sources: PolicySources): string {
  const pictures = sources.pictures.join(' ');
  const withPictures = (list: string) => (pictures ? `${list} ${pictures}` : list);
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    withPictures("img-src 'self' data:"),
    withPictures("media-src 'self'"),
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    'frame-ancestors http: https:',
  ].join('; ');
}

/** Two years, subdomains included: what the HSTS preload list asks for. */
export const HSTS = 'max-age=63072000; includeSubDomains';

/**
 * The headers of one answer, before the route adds its own: a page answer replaces the policy with its
 * nonce-bearing one.
 */
export function securityHeaders(
  path: string,
  sources: PolicySources,
  options: { https: boolean },
): Record<string, string> {
  const framing = framingOf(path);
  const headers: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
  if (framing === 'player') {
    headers['content-security-policy'] = playerFramePolicy(sources);
  } else if (framing !== 'anyone') {
    headers['content-security-policy'] = contentSecurityPolicy(sources, {
      frameAncestors: framing === 'portal' ? "'self'" : "'none'",
    });
    headers['x-frame-options'] = framing === 'portal' ? 'SAMEORIGIN' : 'DENY';
  } else {
    // A picture runs nothing; its policy only keeps a framed or opened picture from becoming a document.
    headers['content-security-policy'] =
      "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'";
  }
  if (options.https) headers['strict-transport-security'] = HSTS;
  return headers;
}

/** Whether this request comes from a browser that loads a remote from a dev server. */
export function wantsDevSources(url: string, cookieHeader: string | undefined): boolean {
  if (/[?&]devRemote=/.test(url)) return true;
  return (cookieHeader ?? '').split(';').some((part) => part.trim().startsWith(`${DEV_REMOTE_COOKIE}=`));
}
