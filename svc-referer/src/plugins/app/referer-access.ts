import type { PublicWebcam } from '@lakecams/contracts';
import { ADMIN_ROLE } from '@lakecams/service-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export interface RefererAccess {
  /** An Admin acting as itself; an Admin impersonating somebody has that user's rights. */
  isAdmin(request: FastifyRequest): boolean;
  /** Ids of the referer users with this url that the caller may act for: an Admin's all, anybody else's own. */
  pagesOf(request: FastifyRequest, url: string): Promise<number[]>;
  /** Cameras the caller may set layers on: booked for its pages (or for `url` only); all for an Admin (any existing `url`). */
  camerasOf(request: FastifyRequest, url?: string): Promise<PublicWebcam[]>;
}

declare module 'fastify' {
  interface FastifyInstance {
    refererAccess: RefererAccess;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    const { refererUserRepository, bookedCameras } = app;
    const isAdmin = (request: FastifyRequest) =>
      request.principal?.roles.includes(ADMIN_ROLE) === true &&
      request.principal.actingUserId === request.principal.userId;
    const ownPages = (request: FastifyRequest, url?: string) =>
      refererUserRepository.ids({
        url,
        userId: isAdmin(request) ? undefined : (request.principal?.actingUserId ?? ''),
      });
    const access: RefererAccess = {
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
    app.decorate('refererAccess', access);
  },
  { name: 'referer-access', dependencies: ['referer-user-repository', 'referer-messaging'] },
);
