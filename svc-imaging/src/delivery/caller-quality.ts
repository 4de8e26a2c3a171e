import { imageNameOf } from '@lakecams/contracts';
import type { FastifyRequest } from 'fastify';
import { type CameraAccess, resolveImageQuality } from './quality-resolution.ts';

const isoDay = (name: string) => `${name.slice(0, 4)}-${name.slice(4, 6)}-${name.slice(6, 8)}`;

/** The quality the request's caller is entitled to for a camera, and whether the answer is personal (not for shared caches). */
export function callerQuality(request: FastifyRequest, access: CameraAccess | undefined) {
  const referer = request.headers.referer ?? null;
  const resolved = resolveImageQuality(access, {
    userId: request.principal?.actingUserId ?? null,
    roles: request.principal?.roles ?? [],
    referer,
    today: isoDay(imageNameOf(new Date())),
  });
  return { ...resolved, personal: request.principal !== null || referer !== null };
}
