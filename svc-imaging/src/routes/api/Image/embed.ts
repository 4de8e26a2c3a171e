import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { cameraPath, isValidCameraName, QUALITIES, SITE_NAME } from '@lakecams/contracts';
import { ErrorSchema, errorBody } from '@lakecams/service-kit';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ImagingComposition } from '../../../composition.ts';
import { EmbedPass } from '../../../schemas.ts';
import { embedPassPage, signEmbedPass } from '../../../delivery/embed-pass.ts';
import { isoDayOf } from '../../../delivery/picture-delivery.ts';
import { resolveImageQuality } from '../../../delivery/quality-resolution.ts';

/** Where the gateway serves the player's stable entry (embed/ in the repository). */
export const EMBED_SCRIPT_PATH = '/embed/v1.js';
/** Days of views camera setup shows. */
const VIEW_DAYS = 30;

const escapeHtml = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * The embedded player's side in svc-imaging (docs/decisions.md, "The embedded player's two forms", "Counting
 * embed views"): the `<iframe>` form's document, the player's beacon (which level the page gets, counted for a
 * booked page) and the views a page's owner reads on camera setup.
 */
const embedRoutes: FastifyPluginAsyncTypebox<
  Pick<ImagingComposition, 'linkSecret' | 'maySeePage' | 'deliveryStates' | 'embedViews'>
> = async (app, { linkSecret, maySeePage, deliveryStates, embedViews }) => {
  /** The page a request stands for: a framed player's pass, else its `Referer`. */
  const pageOf = (request: FastifyRequest, pass: string | undefined) =>
    (pass === undefined ? null : embedPassPage(linkSecret, pass)) ?? request.headers.referer ?? null;

  app.get(
    '/api/Image/Embed/camera/:camera',
    {
      config: { acceptsAccessCookie: true },
      schema: {
        summary:
          "The `<iframe>` form of the embedded player: a document that shows the camera as the framing page's booking gets it",
        params: Type.Object({ camera: Type.String({ maxLength: 64 }) }),
        querystring: Type.Object({
          controls: Type.Optional(Type.Union([Type.Literal('0'), Type.Literal('1')])),
          lang: Type.Optional(Type.Union([Type.Literal('de'), Type.Literal('en')])),
          page: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
        }),
        response: {
          200: { description: 'The player document', content: { 'text/html': { schema: Type.String() } } },
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { camera } = request.params;
      if (!isValidCameraName(camera)) return reply.code(400).send(errorBody(400, 'Not a valid camera name'));
      const { page: preview, controls, lang } = request.query;
      if (preview !== undefined) {
        if (!request.principal) return reply.code(401).send(errorBody(401, "Sign in to preview a page's player"));
        if (!(await maySeePage(request, preview)))
          return reply.code(403).send(errorBody(403, 'You can preview only your own pages'));
      }
      if (!(await deliveryStates.of(camera))) return reply.code(404).send(errorBody(404, `Unknown camera ${camera}`));
      const page = preview ?? request.headers.referer ?? null;
      const attributes = [
        `camera="${escapeHtml(camera)}"`,
        'size="fill"',
        ...(controls === '0' ? ['controls="none"'] : []),
        ...(lang ? [`lang="${lang}"`] : []),
        ...(page ? [`pass="${signEmbedPass(linkSecret, page)}"`] : []),
      ];
      const html = `<!doctype html><html lang="${lang ?? 'de'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Webcam ${escapeHtml(camera)} – ${SITE_NAME}</title><style>html,body{margin:0;height:100%;background:#0b1d2a}</style><script type="module" src="${EMBED_SCRIPT_PATH}"></script></head><body><seecam-player ${attributes.join(' ')}></seecam-player></body></html>`;
      return reply
        .header('cache-control', 'private, no-cache')
        .header('vary', 'Referer, Cookie')
        .type('text/html; charset=utf-8')
        .send(html);
    },
  );

  app.get(
    '/api/Image/EmbedView/camera/:camera',
    {
      schema: {
        summary:
          "The embedded player's beacon: the level the embedding page gets (its Referer or the frame's pass), counted as a view of a booked page",
        params: Type.Object({ camera: Type.String({ maxLength: 64 }) }),
        querystring: Type.Object({ pass: EmbedPass }),
        response: {
          200: Type.Object({
            camera: Type.String(),
            quality: Type.Enum([...QUALITIES]),
            booked: Type.Boolean({ description: 'The page has a booking of the camera today' }),
            cameraPage: Type.String({ description: "The camera's page on the portal (path)" }),
            pass: Type.Optional(
              Type.String({
                description:
                  "A booked page's pass, for what a browser asks without the page's full address (the time-lapse video)",
              }),
            ),
          }),
          400: ErrorSchema,
          404: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { camera } = request.params;
      // Any page may ask; it learns only its own level (what its pictures show anyway).
      reply.header('access-control-allow-origin', '*').header('cache-control', 'no-store');
      if (!isValidCameraName(camera)) return reply.code(400).send(errorBody(400, 'Not a valid camera name'));
      const state = await deliveryStates.of(camera);
      if (!state) return reply.code(404).send(errorBody(404, `Unknown camera ${camera}`));
      const today = isoDayOf(new Date());
      // As the page's visitors get it: the player asks without cookies.
      const resolved = resolveImageQuality(state.access, {
        userId: null,
        roles: [],
        referer: pageOf(request, request.query.pass),
        today,
      });
      const page = pageOf(request, request.query.pass);
      if (resolved.booking) await embedViews.count(state.camera.webcamId, resolved.booking.url, today);
      return {
        camera: state.camera.name,
        quality: resolved.quality,
        booked: resolved.booking !== null,
        cameraPage: cameraPath(state.camera.name),
        // A <video> sends the page's origin only; the pass names the page as this request did.
        ...(resolved.booking && page ? { pass: signEmbedPass(linkSecret, page) } : {}),
      };
    },
  );

  app.get(
    '/api/Image/EmbedViews',
    {
      onRequest: app.requireUser,
      schema: {
        summary: "How often a page showed the embedded player of a camera, per day (the page's owner or an Admin)",
        querystring: Type.Object({
          camera: Type.String({ maxLength: 64 }),
          page: Type.String({ minLength: 1, maxLength: 2000 }),
        }),
        response: {
          200: Type.Object({
            camera: Type.String(),
            page: Type.String(),
            days: Type.Array(Type.Object({ day: Type.String(), views: Type.Integer() }), {
              description: `The last ${VIEW_DAYS} days with views, newest first`,
            }),
          }),
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { camera, page } = request.query;
      if (!(await maySeePage(request, page)))
        return reply.code(403).send(errorBody(403, 'You can see the views of your own pages only'));
      if (!isValidCameraName(camera)) return reply.code(400).send(errorBody(400, 'Not a valid camera name'));
      const state = await deliveryStates.of(camera);
      if (!state) return reply.code(404).send(errorBody(404, `Unknown camera ${camera}`));
      const from = isoDayOf(new Date(Date.now() - (VIEW_DAYS - 1) * 86_400_000));
      return { camera, page, days: await embedViews.perDay(state.camera.webcamId, page, from) };
    },
  );
};

export default embedRoutes;
