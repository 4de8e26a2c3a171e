import { SITE_NAME } from '@lakecams/contracts';
import type { ImageSize } from '../api/admin-api.ts';
import { cameraImagePath } from '../api/admin-api.ts';

const escapeAttribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** The absolute address of a camera's current image, as partner pages embed it. */
export function embedImageUrl(origin: string, cameraName: string): string {
  return new URL(cameraImagePath(cameraName), origin).href;
}

/**
 * Across origins browsers send only the origin as `Referer` by default; this policy sends the page's full address,
 * which tells apart several booked pages of one site (docs/decisions.md, "Referer bookings").
 */
export const EMBED_REFERRER_POLICY = 'no-referrer-when-downgrade';

/** The `<img>` tag a partner copies into their page. */
export function embedSnippet(origin: string, cameraName: string, size: ImageSize | null): string {
  const attributes = [
    `src="${escapeAttribute(embedImageUrl(origin, cameraName))}"`,
    ...(size ? [`width="${size.width}"`, `height="${size.height}"`] : []),
    `alt="${escapeAttribute(`Webcam ${cameraName} – ${SITE_NAME}`)}"`,
    `referrerpolicy="${EMBED_REFERRER_POLICY}"`,
  ];
  return `<img ${attributes.join(' ')}>`;
}

/**
 * The image as the partner page gets it (its quality and layers), past every cache: image delivery
 * serves `page=` to that page's owner or an Admin.
 */
export function pagePreviewUrl(cameraName: string, page: string, version: number): string {
  return `${cameraImagePath(cameraName)}?page=${encodeURIComponent(page)}&v=${version}`;
}
