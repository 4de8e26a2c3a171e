/** Where login goes when no (usable) returnUrl is given: home. */
export const DEFAULT_RETURN_URL = '/';

/**
 * The returnUrl query parameter if it is a path on this site, else `/`. Anything else
 * (`https://…`, `//host`, `/\host`, `javascript:`) would turn the login into an open redirect (docs/product.md §5.1).
 */
export function safeReturnUrl(value: string | null): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return DEFAULT_RETURN_URL;
  try {
    const base = 'https://same.origin.invalid';
    const url = new URL(value, base);
    return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : DEFAULT_RETURN_URL;
  } catch {
    return DEFAULT_RETURN_URL;
  }
}

/** The login page that comes back to `path` afterwards, e.g. `/login?returnUrl=/user`. */
export function loginPathReturningTo(path: string): string {
  return `/login?returnUrl=${encodeURIComponent(path).replace(/%2F/gi, '/')}`;
}
