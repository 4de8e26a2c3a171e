import type { Quality } from '@lakecams/contracts';
import { hasModernVariants, type PictureEncoding } from '../store/formats.ts';

/** How much a client wants a media type: its q-value, 0 when it refuses it. */
function preferences(accept: string): Map<string, number> {
  const wanted = new Map<string, number>();
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    if (!type) continue;
    const q = params.find((param) => param.startsWith('q='));
    const value = q ? Number(q.slice(2)) : 1;
    // A malformed q-value counts as no preference, not as a refusal.
    const weight = Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 1;
    wanted.set(type, Math.max(wanted.get(type) ?? 0, weight));
  }
  return wanted;
}

/**
 * The format a picture request gets from its `Accept` header: AVIF or WebP only when named outright
 * (`*\/*` alone means any client, so JPEG), AVIF before WebP at the same q-value, and JPEG when the client
 * prefers it or names neither. JPEG is always possible: it is the answer for everything else.
 */
export function negotiatePictureFormat(accept: string | undefined): PictureEncoding {
  if (!accept) return 'jpeg';
  const wanted = preferences(accept);
  const avif = wanted.get('image/avif') ?? 0;
  const webp = wanted.get('image/webp') ?? 0;
  const jpeg = wanted.get('image/jpeg') ?? wanted.get('image/*') ?? wanted.get('*/*') ?? 0;
  const modern = Math.max(avif, webp);
  if (modern === 0 || modern < jpeg) return 'jpeg';
  return avif >= webp ? 'avif' : 'webp';
}

/** What a level is served as: the negotiated format where the level has it (FULL is the camera's JPEG). */
export function pictureFormatFor(accept: string | undefined, quality: Quality): PictureEncoding {
  return hasModernVariants(quality) ? negotiatePictureFormat(accept) : 'jpeg';
}
