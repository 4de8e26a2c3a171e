import { ADMIN_ROLE, unavailable } from '@lakecams/service-kit';
import type { FastifyRequest } from 'fastify';
import type { ImagingMessaging } from '../messaging.ts';

/** Whether the caller may see a referer page's picture: an Admin acting as itself, or the page's owner. */
export type PageOwnerCheck = (request: FastifyRequest, page: string) => Promise<boolean>;

/** Asks svc-referer who owns a page (503 when it does not answer). */
export function createPageOwnerCheck({ pageOwned }: Pick<ImagingMessaging, 'pageOwned'>): PageOwnerCheck {
  return async (request, page) => {
    const principal = request.principal;
    if (!principal) return false;
    if (principal.roles.includes(ADMIN_ROLE) && principal.actingUserId === principal.userId) return true;
    return pageOwned(principal.actingUserId, page)
      .then((owned) => owned === true)
      .catch(unavailable('Page owners cannot be read right now, please retry'));
  };
}
