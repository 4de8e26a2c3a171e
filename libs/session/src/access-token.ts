/** The token is refreshed 60 seconds before it expires (docs/decisions.md, "Session in the browser"). */
export const REFRESH_BEFORE_EXPIRY_MS = 60_000;

/** setTimeout stores its delay in 32 bits; longer delays fire at once. */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

function decodeBase64Url(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** When the access JWT expires (ms since the epoch), read from its `exp` claim; null when unreadable. */
export function tokenExpiresAt(jwt: string): number | null {
  const payload = jwt.split('.')[1];
  if (!payload) return null;
  try {
    const { exp } = JSON.parse(decodeBase64Url(payload)) as { exp?: unknown };
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/** Never sooner than this: very short tokens or a skewed clock must not make the page refresh in a loop. */
export const MIN_REFRESH_DELAY_MS = 5_000;

/**
 * Milliseconds until the token should be refreshed: 60 s before it expires; a token with less than
 * two minutes to live at half its remaining life. Null for a token without expiry.
 */
export function refreshDelay(jwt: string, now: number): number | null {
  const expiresAt = tokenExpiresAt(jwt);
  if (expiresAt === null) return null;
  const remaining = expiresAt - now;
  const due = remaining > 2 * REFRESH_BEFORE_EXPIRY_MS ? remaining - REFRESH_BEFORE_EXPIRY_MS : remaining / 2;
  return Math.min(MAX_TIMER_DELAY_MS, Math.max(MIN_REFRESH_DELAY_MS, due));
}

/** Whether the token can still be sent (or has no expiry). */
export function isUnexpired(jwt: string, now: number): boolean {
  const expiresAt = tokenExpiresAt(jwt);
  return expiresAt === null || expiresAt > now;
}
