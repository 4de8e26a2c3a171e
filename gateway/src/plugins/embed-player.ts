import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The stable entry partners paste; it imports the content-hashed build of the day. */
export const EMBED_ENTRY = 'v1.js';
/** How long a browser or the edge keeps the stable entry before asking again (a release shows within this). */
export const EMBED_ENTRY_MAX_AGE_S = 300;

/**
 * `/embed/`: the embedded player's build (embed/dist), for partner pages of any origin (docs/decisions.md, "The
 * embedded player's two forms"). Module scripts are fetched with CORS, so every file says `*` (no credentials);
 * `v1.js` is kept five minutes by browsers and the edge, and may be served stale for a day while revalidating;
 * the hashed file behind it for a year.
 */
export async function embedPlayerPlugin(app: FastifyInstance, options: { frontendRoot: string }) {
  const root = join(options.frontendRoot, 'embed', 'dist');
  if (!existsSync(join(root, EMBED_ENTRY))) {
    app.log.warn({ root }, 'the embedded player is not built: run `npm run build`');
    return;
  }
  await app.register(fastifyStatic, {
    root,
    prefix: '/embed/',
    preCompressed: true,
    decorateReply: false,
    index: false,
    setHeaders: (raw, path) => {
      const reply = raw as unknown as FastifyReply;
      const file = path.split('/').pop() ?? '';
      const hashed = /\.[0-9a-f]{8,}\.js$/.test(file);
      reply.header(
        'cache-control',
        hashed
          ? 'public, max-age=31536000, immutable'
          : `public, max-age=${EMBED_ENTRY_MAX_AGE_S}, stale-while-revalidate=86400`,
      );
      reply.header('access-control-allow-origin', '*');
      reply.header('cross-origin-resource-policy', 'cross-origin');
    },
  });
}
