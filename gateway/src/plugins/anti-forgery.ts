import { XSRF_COOKIE, XSRF_HEADER } from '@lakecams/contracts';
import { errorBody } from '@lakecams/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { randomBytes, timingSafeEqual } from 'node:crypto';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const header = XSRF_HEADER.toLowerCase();
const PICTURES = '/api/Image/Get/';

function cookieValue(cookieHeader: string | undefined, name: string): string | undefined {
  for (const part of cookieHeader?.split(';') ?? []) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Double-submit anti-forgery: a readable `XSRF-TOKEN` cookie is handed out, and every non-GET/HEAD API
 * request must echo it in `X-XSRF-TOKEN`. Another site can send the cookie but cannot read it.
 */
export const antiForgeryPlugin = fp(
  async (app: FastifyInstance, options: { secureCookie: boolean }) => {
    app.addHook('onRequest', async (request, reply) => {
      const cookie = cookieValue(request.headers.cookie, XSRF_COOKIE);
      // Pictures are embedded by partner pages and cached publicly: they carry no cookie.
      if (!cookie && !request.url.startsWith(PICTURES)) {
        const token = randomBytes(24).toString('base64url');
        // Raw header: API replies are handed to services, which write the response themselves.
        reply.raw.setHeader(
          'set-cookie',
          `${XSRF_COOKIE}=${token}; Path=/; SameSite=Strict${options.secureCookie ? '; Secure' : ''}`,
        );
      }
      if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
      const sent = request.headers[header];
      if (!cookie || typeof sent !== 'string' || !same(sent, cookie)) {
        return reply.code(403).send(errorBody(403, 'Missing or invalid anti-forgery token'));
      }
    });
  },
  { name: 'anti-forgery' },
);
