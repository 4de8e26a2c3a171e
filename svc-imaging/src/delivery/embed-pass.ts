import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The page a framed player stands for (docs/decisions.md, "The embedded player's two forms"). Inside the `<iframe>`
 * form the browser names the portal's frame as `Referer`, not the partner's page; the frame document is asked for
 * with the partner page's `Referer`, so svc-imaging signs that page into a pass the frame's requests carry.
 * `<base64url page>.<expiry, epoch seconds>.<HMAC-SHA256>`: readable, unforgeable, good for a day.
 */
export const EMBED_PASS_LIFETIME_S = 86_400;
const MAX_PASS_LENGTH = 3000;

const mac = (secret: string, page: string, expires: number) =>
  createHmac('sha256', secret).update(`embed-page\n${page}\n${expires}`).digest('base64url');

export function signEmbedPass(secret: string, page: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + EMBED_PASS_LIFETIME_S;
  return `${Buffer.from(page).toString('base64url')}.${expires}.${mac(secret, page, expires)}`;
}

/** The page a pass names while it is valid; null for anything else (expired, edited, not a pass). */
export function embedPassPage(secret: string, pass: string | undefined, now = Date.now()): string | null {
  if (!pass || pass.length > MAX_PASS_LENGTH) return null;
  const match = /^([A-Za-z0-9_-]+)\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(pass);
  if (!match) return null;
  const [, encodedPage, expiresText, signature] = match as unknown as [string, string, string, string];
  const expires = Number(expiresText);
  if (expires * 1000 <= now) return null;
  const page = Buffer.from(encodedPage, 'base64url').toString('utf8');
  const expected = Buffer.from(mac(secret, page, expires));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? page : null;
}
