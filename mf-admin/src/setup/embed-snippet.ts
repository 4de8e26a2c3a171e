import { SITE_NAME } from '@lakecams/contracts';
import type { ImageSize } from '../shared/admin-api.ts';
import { cameraImagePath } from '../shared/admin-api.ts';

const escapeAttribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** The absolute address of a camera's current image, as partner pages embed it. */
export function embedImageUrl(origin: string, cameraName: string): string {
  return new URL(cameraImagePath(cameraName), origin).href;
}

/** The `<img>` tag a partner copies into their page. */
export function embedSnippet(origin: string, cameraName: string, size: ImageSize | null): string {
  const attributes = [
    `src="${escapeAttribute(embedImageUrl(origin, cameraName))}"`,
    ...(size ? [`width="${size.width}"`, `height="${size.height}"`] : []),
    `alt="${escapeAttribute(`Webcam ${cameraName} – ${SITE_NAME}`)}"`,
  ];
  return `<img ${attributes.join(' ')}>`;
}

/** The same image again, past every cache: the preview after a layer change. */
export function freshImageUrl(cameraName: string, version: number): string {
  return `${cameraImagePath(cameraName)}?v=${version}`;
}

/**
 * Image delivery draws a page's layers when the request comes from that page (same origin, path
 * under the booked one): only then does the preview on this page show them.
 */
export function previewShowsLayersOf(bookedUrl: string, pageUrl: string): boolean {
  try {
    const booked = new URL(bookedUrl);
    const page = new URL(pageUrl);
    return booked.origin === page.origin && page.pathname.startsWith(booked.pathname);
  } catch {
    return false;
  }
}
