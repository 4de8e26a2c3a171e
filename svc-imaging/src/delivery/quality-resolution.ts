import { QUALITIES, type Quality, ROLES } from '@lakecams/contracts';
import type { AccessBooking, AccessConfiguration } from '../database.ts';

export interface ImageCaller {
  /** The acting user, when the request carries a valid access token. */
  userId: string | null;
  roles: readonly string[];
  /** The page the image is embedded in (`Referer` header). */
  referer: string | null;
  /** Today in the region, `YYYY-MM-DD`. */
  today: string;
}

export interface CameraAccess {
  configurations: readonly AccessConfiguration[];
  bookings: readonly AccessBooking[];
}

export type QualityReason = 'own configuration' | 'referer booking' | 'all other users' | 'default';

/** Signed-in users see at least this level on every camera; anonymous visitors see POOR. */
export const SIGNED_IN_FLOOR: Quality = 'LOW';
/** Premium users (feature code) see at least this level. */
export const PREMIUM_FLOOR: Quality = 'MEDIUM';

const rank = (quality: Quality) => QUALITIES.indexOf(quality);
const atLeast = (quality: Quality, floor: Quality): Quality => (rank(quality) >= rank(floor) ? quality : floor);

const urlOf = (value: string): URL | null => {
  try {
    return new URL(value);
  } catch {
    return null;
  }
};

/** A booking's url matches a page on the same origin whose path starts with the booking's path. */
export function refererMatches(bookingUrl: string, referer: string): boolean {
  const booked = urlOf(bookingUrl);
  const page = urlOf(referer);
  if (!booked || !page) return false;
  const path = booked.pathname.endsWith('/') ? booked.pathname : `${booked.pathname}/`;
  return (
    booked.origin === page.origin &&
    (page.pathname === booked.pathname || page.pathname.startsWith(path) || booked.pathname === '/')
  );
}

/** A `Referer` of only an origin, as browsers send it across origins by default (`strict-origin-when-cross-origin`). */
export function isOriginOnly(referer: string): boolean {
  const page = urlOf(referer);
  return (
    (page?.protocol === 'https:' || page?.protocol === 'http:') &&
    page.pathname === '/' &&
    page.search === '' &&
    page.hash === ''
  );
}

/**
 * The booking a page's `Referer` falls under among those covering today: the most specific booked path that
 * matches the full address; for an address cut to its origin, the origin's booking if it has only one booked
 * page for the camera (several are ambiguous: the snippet's referrer policy sends the path).
 */
export function bookingOfPage(
  bookings: readonly AccessBooking[],
  referer: string,
  today: string,
): AccessBooking | undefined {
  const current = bookings.filter((b) => b.start <= today && today <= b.end);
  const matching = current.filter((b) => refererMatches(b.url, referer));
  const pathLength = (b: AccessBooking) => urlOf(b.url)?.pathname.length ?? 0;
  const [mostSpecific] = matching.sort((a, b) => pathLength(b) - pathLength(a));
  if (mostSpecific || !isOriginOnly(referer)) return mostSpecific;
  const origin = urlOf(referer)?.origin;
  const ofOrigin = current.filter((b) => urlOf(b.url)?.origin === origin);
  return new Set(ofOrigin.map((b) => b.url)).size === 1 ? ofOrigin[0] : undefined;
}

/**
 * The quality a caller gets (docs/decisions.md, "Which quality a caller gets"): the caller's own configuration;
 * else a booking of the embedding page covering today (`bookingOfPage`); else, for a signed-in user, the
 * configuration for all other users; else POOR. Signed-in users get at least LOW, Premium users at least MEDIUM.
 */
export function resolveImageQuality(
  access: CameraAccess | undefined,
  caller: ImageCaller,
): { quality: Quality; reason: QualityReason; booking: AccessBooking | null } {
  const floor = caller.roles.includes(ROLES.premium) ? PREMIUM_FLOOR : caller.userId ? SIGNED_IN_FLOOR : 'POOR';
  const raised = (quality: Quality) => atLeast(quality, floor);
  const own = caller.userId ? access?.configurations.find((c) => c.userId === caller.userId) : undefined;
  if (own) return { quality: raised(own.quality), reason: 'own configuration', booking: null };
  const booking = caller.referer && access ? bookingOfPage(access.bookings, caller.referer, caller.today) : undefined;
  if (booking) return { quality: raised(booking.quality), reason: 'referer booking', booking };
  // "All other users" are the other users: an anonymous visitor is none.
  const others = caller.userId ? access?.configurations.find((c) => c.userId === null) : undefined;
  if (others) return { quality: raised(others.quality), reason: 'all other users', booking: null };
  return { quality: raised('POOR'), reason: 'default', booking: null };
}
