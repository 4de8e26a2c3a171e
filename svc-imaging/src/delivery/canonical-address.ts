/**
 * Pictures, tiles and clips each have one address. Caches (a CDN, the edge, the gateway's memory) key on the
 * URL as it was sent, so another spelling of the same thing (an escape, a number written otherwise, one more
 * query parameter) would be a key of its own: a way around the cache, and around what it was told to forget.
 * A route rebuilds the address from what it parsed and answers only a request that spelled it so
 * (docs/decisions.md, "One address per picture").
 */
export function otherSpelling(sentUrl: string, canonical: string): { status: 404; message: string } | null {
  if (sentUrl === canonical) return null;
  return { status: 404, message: `Not the address of this resource; it is ${canonical}` };
}
