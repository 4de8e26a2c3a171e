import { QUALITIES, type Quality } from '@lakecams/contracts';

export type ZoomRefusal = { status: 401 | 403; message: string } | null;

/**
 * Tiles show the level named in their URL, so that caches never mix levels; a caller may ask for its
 * entitled level or a lower one. Anonymous callers are told to sign in, signed-in ones that they may not.
 */
export function zoomLevelRefusal(requested: Quality, entitled: Quality, signedIn: boolean): ZoomRefusal {
  if (QUALITIES.indexOf(requested) <= QUALITIES.indexOf(entitled)) return null;
  return signedIn
    ? { status: 403, message: `Your quality for this camera is ${entitled}, not ${requested}` }
    : { status: 401, message: `Sign in for the quality ${requested}; anonymous visitors get ${entitled}` };
}
