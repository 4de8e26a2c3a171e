import type { FastifyReply, FastifyRequest } from 'fastify';

/** One member of an If-None-Match list: `*`, an entity tag, weak (`W/"…"`) or strong (`"…"`), or empty. */
const MEMBER = /\s*(?:(\*)|(?:W\/)?("[^"]*"))?\s*(?:,|$)/y;

/**
 * RFC 9110 §13.1.2: whether `If-None-Match` names the current representation, whose entity tag is `etag`.
 * The comparison is weak (`W/"a"` matches `"a"`), the header is a comma-separated list (quoted tags may
 * hold commas), and `*` matches any current representation. A malformed header matches nothing.
 */
export function ifNoneMatchHits(header: string | readonly string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const current = opaqueTag(etag);
  const text = typeof header === 'string' ? header : header.join(',');
  let hit = false;
  MEMBER.lastIndex = 0;
  while (MEMBER.lastIndex < text.length) {
    const member = MEMBER.exec(text);
    if (!member) return false;
    if (member[1] || member[2] === current) hit = true;
  }
  return hit;
}

/** `W/"x"` and `"x"` → `"x"`. */
const opaqueTag = (etag: string) => (etag.startsWith('W/') ? etag.slice(2) : etag);

/**
 * Sets the ETag and answers 304 when the request's `If-None-Match` names it (GET and HEAD).
 * Headers set before (Cache-Control, Vary) go with the 304, as RFC 9110 §15.4.5 asks. Returns whether
 * the 304 was sent; the caller then returns `reply`.
 */
export function replyNotModified(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  reply.header('etag', etag);
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (!ifNoneMatchHits(request.headers['if-none-match'], etag)) return false;
  reply.code(304).send();
  return true;
}
