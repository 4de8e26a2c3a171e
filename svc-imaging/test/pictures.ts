import type { ServiceApp } from '@lakecams/service-kit';

/**
 * A picture as a browser gets it: the entitlement URL's redirect, then the picture's immutable name, asked for
 * as from a cookie-less host (only `Accept` and `If-None-Match` go along).
 */
export async function getPicture(app: ServiceApp, url: string, headers: Record<string, string> = {}) {
  const entitlement = await app.inject({ url, headers });
  if (entitlement.statusCode !== 302) return { entitlement, picture: entitlement, location: null };
  const location = new URL(String(entitlement.headers.location), 'http://portal.invalid');
  const forwarded = Object.fromEntries(
    Object.entries(headers).filter(([name]) => ['accept', 'if-none-match'].includes(name.toLowerCase())),
  );
  const picture = await app.inject({ url: `${location.pathname}${location.search}`, headers: forwarded });
  return { entitlement, picture, location };
}
