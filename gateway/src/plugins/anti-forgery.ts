import {
  CAMERA_PUSH_PATH_PREFIX,
  ANTI_FORGERY_SESSION_COOKIE,
  HOST_COOKIE_PREFIX,
  PICTURE_PATH_PREFIX,
  XSRF_COOKIE,
  XSRF_HEADER,
} from '@lakecams/contracts';
import { errorBody } from '@lakecams/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const header = XSRF_HEADER.toLowerCase();
const PICTURES = ['/api/Image/Get/', PICTURE_PATH_PREFIX];
/** What the embedded player asks for on a partner's page: it sets no cookie there (docs/decisions.md). */
const EMBEDDED_PLAYER = ['/api/Image/Timelapse/', '/api/Image/Embed/', '/api/Image/EmbedView/'];
/** A file outside the API (scripts, styles, icons, the manifest): pages and API calls get the cookies. */
const STATIC_FILE = /^\/(?!api\/)(?:[^/?#]+\/)*[^/?#]*\.[A-Za-z0-9]+(?:[?#]|$)/;

/**
 * Requests that get no anti-forgery cookies: pictures, embedded by partner pages and cached publicly, and the
 * front ends' files, which a CDN or the edge cache keeps for everybody (an answer with Set-Cookie is stored
 * by none of them).
 */
const isCameraPush = (url: string) => url.startsWith(CAMERA_PUSH_PATH_PREFIX);
const cookieless = (url: string) =>
  PICTURES.some((prefix) => url.startsWith(prefix)) ||
  EMBEDDED_PLAYER.some((prefix) => url.startsWith(prefix)) ||
  STATIC_FILE.test(url) ||
  isCameraPush(url);
/** 32 random bytes, base64url. */
const SESSION_ID = /^[\w-]{43}$/;

export interface AntiForgeryOptions {
  /** Served over https: `Secure` cookies with the `__Host-` prefix. */
  secureCookie: boolean;
  /** HMAC key of the tokens; every gateway replica needs the same. */
  secret: string;
}

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

/** OWASP's signed double submit: `<random>.<HMAC over the session id and the random value>`. */
export function antiForgeryToken(secret: string, sessionId: string, random = randomBytes(24).toString('base64url')) {
  const message = `${sessionId.length}!${sessionId}!${random.length}!${random}`;
  return `${random}.${createHmac('sha256', secret).update(message).digest('base64url')}`;
}

function signedFor(secret: string, token: string, sessionId: string): boolean {
  const random = token.split('.')[0] ?? '';
  return random !== '' && same(token, antiForgeryToken(secret, sessionId, random));
}

/**
 * Signed double-submit anti-forgery. The gateway gives each browser an httpOnly session id cookie and a
 * readable `XSRF-TOKEN` cookie holding a token signed (HMAC) for that session; every non-GET/HEAD API request
 * must echo the token in `X-XSRF-TOKEN`. Another site can send the cookies but cannot read them, and a cookie
 * planted from a sibling subdomain fails the signature: it was not made for this browser's session
 * (docs/product.md §8.4).
 */
export const antiForgeryPlugin = fp(
  async (app: FastifyInstance, options: AntiForgeryOptions) => {
    const prefix = options.secureCookie ? HOST_COOKIE_PREFIX : '';
    const sessionCookie = `${prefix}${ANTI_FORGERY_SESSION_COOKIE}`;
    const tokenCookie = `${prefix}${XSRF_COOKIE}`;
    const attributes = `Path=/; SameSite=Strict${options.secureCookie ? '; Secure' : ''}`;

    app.addHook('onRequest', async (request, reply) => {
      const cookies = request.headers.cookie;
      const sentSession = cookieValue(cookies, sessionCookie);
      const sentToken = cookieValue(cookies, tokenCookie);
      const session = sentSession && SESSION_ID.test(sentSession) ? sentSession : undefined;
      const valid = session !== undefined && sentToken !== undefined && signedFor(options.secret, sentToken, session);
      if (!valid && !cookieless(request.url)) {
        const newSession = session ?? randomBytes(32).toString('base64url');
        const issued = [`${tokenCookie}=${antiForgeryToken(options.secret, newSession)}; ${attributes}`];
        if (!session) issued.unshift(`${sessionCookie}=${newSession}; ${attributes}; HttpOnly`);
        // Raw header: API replies are handed to services, which write the response themselves.
        reply.raw.setHeader('set-cookie', issued);
      }
      // Cameras pushing pictures authenticate with their own secret; no cookie is read there.
      if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/') || isCameraPush(request.url)) return;
      const echoed = request.headers[header];
      if (!valid || typeof echoed !== 'string' || !same(echoed, sentToken as string)) {
        return reply.code(403).send(errorBody(403, 'Missing or invalid anti-forgery token'));
      }
    });
  },
  { name: 'anti-forgery' },
);
