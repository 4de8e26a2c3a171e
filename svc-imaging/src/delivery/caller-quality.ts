import type { FastifyRequest } from 'fastify';
import { isoDayOf } from './picture-delivery.ts';
import { type CameraAccess, resolveImageQuality } from './quality-resolution.ts';

/** The quality the request's caller is entitled to for a camera, and whether the answer is personal (not for shared caches). */
export function callerQuality(request: FastifyRequest, access: CameraAccess | undefined, page: string | null = null) {
  // `page`: what a framed player's pass names (routes/api/Image/embed.ts), in place of the frame's own address.
  const referer = page ?? request.headers.referer ?? null;
  const resolved = resolveImageQuality(access, {
    userId: request.principal?.actingUserId ?? null,
    roles: request.principal?.roles ?? [],
    referer,
    today: isoDayOf(new Date()),
  });
  return { ...resolved, personal: request.principal !== null || referer !== null };
}
