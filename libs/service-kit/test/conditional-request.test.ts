import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ifNoneMatchHits, replyNotModified } from '../src/index.ts';

const ETAG = '"7-202611221200-ab12cd34-POOR"';

describe('If-None-Match (RFC 9110 §13.1.2)', () => {
  it('matches the tag itself, weak or strong, alone or in a list, and *', () => {
    for (const header of [
      ETAG,
      `W/${ETAG}`,
      `"x", ${ETAG}`,
      `"x",W/${ETAG} , "y"`,
      ` ${ETAG} `,
      `"a,b", ${ETAG}`,
      `"x",, ${ETAG},`,
      '*',
      ['"x"', ETAG],
    ]) {
      expect(ifNoneMatchHits(header, ETAG), JSON.stringify(header)).toBe(true);
    }
    // A weak ETag of ours is compared weakly too.
    expect(ifNoneMatchHits(ETAG, `W/${ETAG}`)).toBe(true);
  });

  it('does not match other tags, partial tags, or a malformed header', () => {
    for (const header of [
      undefined,
      '',
      '"x"',
      '"x", "y"',
      ETAG.slice(1, -1),
      `w/${ETAG}`,
      `"${ETAG}"`,
      `"a,${ETAG.slice(1)}`,
      `${ETAG} garbage`,
      `garbage, ${ETAG}`,
      `*, ${ETAG} x`,
    ]) {
      expect(ifNoneMatchHits(header, ETAG), JSON.stringify(header)).toBe(false);
    }
  });

  it('answers 304 to GET and HEAD with the ETag and the headers set before; other methods go on', async () => {
    const app = Fastify();
    const handler = async (request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
      reply.header('cache-control', 'no-cache');
      if (replyNotModified(request, reply, ETAG)) return reply;
      return { fresh: true };
    };
    app.get('/thing', handler);
    app.post('/thing', handler);
    try {
      const notModified = await app.inject({ url: '/thing', headers: { 'if-none-match': `W/${ETAG}` } });
      expect([notModified.statusCode, notModified.body]).toEqual([304, '']);
      expect(notModified.headers).toMatchObject({ etag: ETAG, 'cache-control': 'no-cache' });
      const head = await app.inject({ method: 'HEAD', url: '/thing', headers: { 'if-none-match': '*' } });
      expect(head.statusCode).toBe(304);
      const other = await app.inject({ url: '/thing', headers: { 'if-none-match': '"x"' } });
      expect([other.statusCode, other.json(), other.headers.etag]).toEqual([200, { fresh: true }, ETAG]);
      const post = await app.inject({ method: 'POST', url: '/thing', headers: { 'if-none-match': '*' } });
      expect(post.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
