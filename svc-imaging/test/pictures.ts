import type { ServiceApp } from '@lakecams/service-kit';

/**
 * A picture as a browser gets it: the entitlement URL's redirect, then the picture's immutable name, asked for
 * as from a cookie-less host (only `Accept` and `If-None-Match` go along). `location` is where the entitlement
 * sent the browser; a picture stored before its level had AVIF and WebP copies redirects once more, to its
 * JPEG's name, which `final` then holds.
 */
export async function getPicture(app: ServiceApp, url: string, headers: Record<string, string> = {}) {
  const entitlement = await app.inject({ url, headers });
  if (entitlement.statusCode !== 302) return { entitlement, picture: entitlement, location: null, final: null };
  const location = new URL(String(entitlement.headers.location), 'http://portal.invalid');
  const forwarded = Object.fromEntries(
    Object.entries(headers).filter(([name]) => ['accept', 'if-none-match'].includes(name.toLowerCase())),
  );
  let final = location;
  let picture = await app.inject({ url: `${final.pathname}${final.search}`, headers: forwarded });
  for (let hops = 0; picture.statusCode === 302 && hops < 3; hops++) {
    final = new URL(String(picture.headers.location), final);
    picture = await app.inject({ url: `${final.pathname}${final.search}`, headers: forwarded });
  }
  return { entitlement, picture, location, final };
}
