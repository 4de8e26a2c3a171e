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

/** Premium users (feature code) see at least this level. */
export const PREMIUM_FLOOR: Quality = 'MEDIUM';

const rank = (quality: Quality) => QUALITIES.indexOf(quality);
const atLeast = (quality: Quality, floor: Quality): Quality => (rank(quality) >= rank(floor) ? quality : floor);

/** A booking's url matches a page on the same origin whose path starts with the booking's path. */
export function refererMatches(bookingUrl: string, referer: string): boolean {
  try {
    const booked = new URL(bookingUrl);
    const page = new URL(referer);
    const path = booked.pathname.endsWith('/') ? booked.pathname : `${booked.pathname}/`;
    return (
      booked.origin === page.origin &&
      (page.pathname === booked.pathname || page.pathname.startsWith(path) || booked.pathname === '/')
    );
  } catch {
    return false;
  }
}

/**
 * The quality a caller gets (README.md, "Images"): the caller's own configuration;
 * else a booking of the embedding page covering today; else the configuration for all other users;
 * else POOR. Premium users get at least MEDIUM.
 */
export function resolveImageQuality(
  access: CameraAccess | undefined,
  caller: ImageCaller,
): { quality: Quality; reason: QualityReason; booking: AccessBooking | null } {
  const premium = (quality: Quality) =>
    caller.roles.includes(ROLES.premium) ? atLeast(quality, PREMIUM_FLOOR) : quality;
  const own = caller.userId ? access?.configurations.find((c) => c.userId === caller.userId) : undefined;
  if (own) return { quality: premium(own.quality), reason: 'own configuration', booking: null };
  const booking = caller.referer
    ? access?.bookings.find(
        (b) => b.start <= caller.today && caller.today <= b.end && refererMatches(b.url, caller.referer as string),
      )
    : undefined;
  if (booking) return { quality: premium(booking.quality), reason: 'referer booking', booking };
  const others = access?.configurations.find((c) => c.userId === null);
  if (others) return { quality: premium(others.quality), reason: 'all other users', booking: null };
  return { quality: premium('POOR'), reason: 'default', booking: null };
}
