import type { PublicWebcam } from '@lakecams/contracts';
import { ADMIN_ROLE } from '@lakecams/service-kit';
import type { FastifyRequest } from 'fastify';
import type { RefererMessaging } from './messaging.ts';
import type { RefererUserRepository } from './repositories/referer-user-repository.ts';

export interface RefererAccess {
  /** An Admin acting as itself; an Admin impersonating somebody has that user's rights. */
  isAdmin(request: FastifyRequest): boolean;
  /** Ids of the referer users with this url that the caller may act for: an Admin's all, anybody else's own. */
  pagesOf(request: FastifyRequest, url: string): Promise<number[]>;
  /** Cameras the caller may set layers on: booked for its pages (or for `url` only); all for an Admin (any existing `url`). */
  camerasOf(request: FastifyRequest, url?: string): Promise<PublicWebcam[]>;
}

/** Which pages and cameras a caller may act for: its own pages and their bookings, everything for an Admin. */
export function createRefererAccess(
  refererUsers: RefererUserRepository,
  { bookedCameras }: Pick<RefererMessaging, 'bookedCameras'>,
): RefererAccess {
  const isAdmin = (request: FastifyRequest) =>
    request.principal?.roles.includes(ADMIN_ROLE) === true &&
    request.principal.actingUserId === request.principal.userId;
  const ownPages = (request: FastifyRequest, url?: string) =>
    refererUsers.ids({
      url,
      userId: isAdmin(request) ? undefined : (request.principal?.actingUserId ?? ''),
    });
  return {
    isAdmin,
    pagesOf: (request, url) => ownPages(request, url),
    async camerasOf(request, url?) {
      if (isAdmin(request) && url === undefined) return bookedCameras(null);
      const refererUserIds = await ownPages(request, url);
      if (refererUserIds.length === 0) return [];
      // An Admin sets up any page on any camera, booked or not (product.md §6.4); layers need a page, so one must exist.
      return bookedCameras(isAdmin(request) ? null : refererUserIds);
    },
  };
}
