import { QUALITIES, type Quality } from '@lakecams/contracts';
import { imageUrl, zoomDescriptorUrl } from '../api/picture-urls.ts';

/**
 * `HIGH`: the level from `X-Image-Quality`, as the picture answers it (`HIGH`, where fetch ends up after the
 * picture URL's redirect) or as the redirect does (`HIGH; own configuration`).
 */
export function qualityOf(header: string | null): Quality | null {
  const level = header?.split(';')[0]?.trim() ?? '';
  return (QUALITIES as readonly string[]).includes(level) ? (level as Quality) : null;
}

export type ViewerSource = { type: 'image'; url: string } | { type: 'tiles'; url: string };

/**
 * What the viewer opens: the picture itself when the screen shows all its pixels at once, deep-zoom tiles
 * of the visitor's level when it is wider (a 4K picture is not loaded whole to look at a corner).
 */
export function viewerSource(
  camera: string,
  moment: string,
  picture: { quality: Quality | null; width: number },
  screenPixels: number,
): ViewerSource {
  if (picture.quality === null || picture.width <= screenPixels)
    return { type: 'image', url: imageUrl(camera, moment) };
  return { type: 'tiles', url: zoomDescriptorUrl(camera, moment, picture.quality) };
}

/** The picture as the visitor gets it (fetch follows the redirect to its name): its level, width and the camera's. */
export async function entitledPicture(
  camera: string,
  moment: string,
  signal: AbortSignal,
): Promise<{ quality: Quality | null; width: number; fullWidth: number | null }> {
  const response = await fetch(imageUrl(camera, moment), { signal });
  if (!response.ok) throw new Error(`Picture ${moment} of ${camera}: HTTP ${response.status}`);
  const bitmap = await createImageBitmap(await response.blob());
  const width = bitmap.width;
  bitmap.close();
  const fullWidth = Number(response.headers.get('x-image-full-width'));
  return {
    quality: qualityOf(response.headers.get('x-image-quality')),
    width,
    fullWidth: Number.isInteger(fullWidth) && fullWidth > 0 ? fullWidth : null,
  };
}

/**
 * How far the viewer zooms in, as OpenSeadragon's `maxZoomPixelRatio` (CSS pixels per picture pixel): until
 * one picture pixel fills one screen pixel, on screens denser than 2× as on a 2× one; beyond that is only blur.
 */
export function maxZoomPixelRatio(devicePixelRatio: number): number {
  return 1 / Math.min(Math.max(devicePixelRatio, 1), 2);
}
