import { SITE_NAME } from '@lakecams/contracts';
import type { ImageSize } from '../api/admin-api.ts';
import { embedImageUrl, playerFramePath } from '../api/picture-urls.ts';

const escapeAttribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * Across origins browsers send only the origin as `Referer` by default; this policy sends the page's full address,
 * which tells apart several booked pages of one site (docs/decisions.md, "Referer bookings").
 */
export const EMBED_REFERRER_POLICY = 'no-referrer-when-downgrade';

/** The `<img>` tag a partner copies into their page. */
export function embedSnippet(origin: string, cameraName: string, size: ImageSize | null): string {
  const attributes = [
    `src="${escapeAttribute(embedImageUrl(origin, cameraName))}"`,
    ...(size ? [`width="${size.width}"`, `height="${size.height}"`] : []),
    `alt="${escapeAttribute(`Webcam ${cameraName} – ${SITE_NAME}`)}"`,
    `referrerpolicy="${EMBED_REFERRER_POLICY}"`,
  ];
  return `<img ${attributes.join(' ')}>`;
}

/** Where the portal serves the player's stable entry (embed/, docs/decisions.md "The embedded player's two forms"). */
export const PLAYER_SCRIPT_PATH = '/embed/v1.js';

/** The custom element form: the player's script and the element, as a partner pastes them. */
export function playerSnippet(origin: string, cameraName: string): string {
  const script = new URL(PLAYER_SCRIPT_PATH, origin).href;
  return `<script type="module" src="${escapeAttribute(script)}" async></script>\n<seecam-player camera="${escapeAttribute(cameraName)}" lang="de"></seecam-player>`;
}

/** The `<iframe>` form, for pages that allow no scripts of others. */
export function frameSnippet(origin: string, cameraName: string): string {
  const attributes = [
    `src="${escapeAttribute(new URL(playerFramePath(cameraName), origin).href)}"`,
    `title="${escapeAttribute(`Webcam ${cameraName} – ${SITE_NAME}`)}"`,
    'width="640"',
    'height="420"',
    `referrerpolicy="${EMBED_REFERRER_POLICY}"`,
    'allow="fullscreen"',
    'loading="lazy"',
  ];
  return `<iframe ${attributes.join(' ')}></iframe>`;
}

const urlOf = (value: string): URL | null => {
  try {
    return new URL(value);
  } catch {
    return null;
  }
};

/**
 * Why a page would not get the booking of `booked` (the rule of svc-imaging's `refererMatches`: the same origin and
 * a path at or under the booked one), or null when it does.
 */
export function bookingMismatch(page: string, booked: string): string | null {
  const at = urlOf(page.trim());
  const bookedUrl = urlOf(booked);
  if (!at || !/^https?:$/.test(at.protocol)) return 'Bitte die vollständige Adresse der Seite angeben (https://…).';
  if (!bookedUrl) return null;
  const publicLevel = 'zeigt der Player dort nur die öffentliche Qualität, ohne Ihre Layer';
  if (at.origin !== bookedUrl.origin)
    return `Gebucht ist ${booked}: ${at.origin} ist eine andere Website, also ${publicLevel}.`;
  const base = bookedUrl.pathname.endsWith('/') ? bookedUrl.pathname : `${bookedUrl.pathname}/`;
  const under = at.pathname === bookedUrl.pathname || at.pathname.startsWith(base) || bookedUrl.pathname === '/';
  return under ? null : `Gebucht ist ${booked} mit den Seiten darunter: auf ${at.pathname} ${publicLevel}.`;
}
