import { type PublicWebcam, SUBJECTS } from '@lakecams/contracts';
import { ADMIN_ROLE, unavailable } from '@lakecams/service-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../database.ts';

export interface RefererAccess {
  /** An Admin acting as itself; an Admin impersonating somebody has that user's rights. */
  isAdmin(request: FastifyRequest): boolean;
  /** Ids of the referer users with this url that the caller may act for: an Admin's all, anybody else's own. */
  pagesOf(request: FastifyRequest, url: string): Promise<number[]>;
  /** Cameras the caller may set layers on: booked for its pages (or for `url` only); all for an Admin. */
  camerasOf(request: FastifyRequest, url?: string): Promise<PublicWebcam[]>;
}

declare module 'fastify' {
  interface FastifyInstance {
    refererAccess: RefererAccess;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    const db = app.db as Kysely<Database>;
    const isAdmin = (request: FastifyRequest) =>
      request.principal?.roles.includes(ADMIN_ROLE) === true &&
      request.principal.actingUserId === request.principal.userId;
    const ownPages = (request: FastifyRequest, url?: string) => {
      let query = db.selectFrom('refererUsers').select('id');
      if (url !== undefined) query = query.where('url', '=', url);
      if (!isAdmin(request)) query = query.where('userId', '=', request.principal?.actingUserId ?? '');
      return query.execute().then((rows) => rows.map((r) => r.id));
    };
    // svc-webcam keeps the bookings; when it does not answer the caller may retry (503, logged).
    const bookedCameras = (refererUserIds: number[] | null) =>
      app.bus
        .request<PublicWebcam[]>(SUBJECTS.bookedCameras, { refererUserIds }, { timeoutMs: 3000 })
        .catch(unavailable('Camera bookings cannot be read right now, please retry'));
    const access: RefererAccess = {
      isAdmin,
      pagesOf: (request, url) => ownPages(request, url),
      async camerasOf(request, url) {
        if (isAdmin(request) && url === undefined) return bookedCameras(null);
        const refererUserIds = await ownPages(request, url);
        if (refererUserIds.length === 0) return [];
        return bookedCameras(refererUserIds);
      },
    };
    app.decorate('refererAccess', access);
  },
  { name: 'referer-access', dependencies: ['database'] },
);
