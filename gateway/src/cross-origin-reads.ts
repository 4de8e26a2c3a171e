/**
 * What a partner page's embedded player reads from the portal across origins (docs/decisions.md, "The embedded
 * player's two forms"): a day's picture names and the live picture events, both the same for every caller. They
 * answer `Access-Control-Allow-Origin: *` without `-Credentials`, so a page of another site reads them only as an
 * anonymous visitor would, never with the visitor's cookies. Nothing else of `/api` is readable across origins.
 */
const CROSS_ORIGIN_READS = new Set(['/api/Webcam/GetImageHistory', '/api/Events/stream']);

export function isCrossOriginRead(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && CROSS_ORIGIN_READS.has(path);
}
