import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isValidCameraName } from '@lakecams/contracts';
import { ErrorSchema, errorBody, ifNoneMatchHits } from '@lakecams/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ImagingComposition } from '../../../composition.ts';
import { EmbedPass } from '../../../schemas.ts';
import { otherSpelling } from '../../../delivery/canonical-address.ts';
import { embedPassPage } from '../../../delivery/embed-pass.ts';
import type { DeliveryAnswer } from '../../../delivery/picture-delivery.ts';
import { parsePicturePath, pictureAddress } from '../../../delivery/picture-links.ts';

const IMAGE_NAME = /^\d{12}$/;

/** `Richterswil.jpg` → `Richterswil`; null when it is not a camera name with `.jpg`. */
function cameraNameOf(file: string): string | null {
  const name = file.endsWith('.jpg') ? file.slice(0, -4) : null;
  return name && isValidCameraName(name) ? name : null;
}

/**
 * Pictures: the entitlement URLs (a camera's current or an earlier picture at the caller's level, a redirect)
 * and the pictures by their immutable names (delivery/picture-delivery.ts decides and answers).
 */
const pictureRoutes: FastifyPluginAsyncTypebox<
  Pick<ImagingComposition, 'pictures' | 'maySeePage' | 'linkSecret'>
> = async (app, { pictures, maySeePage, linkSecret }) => {
  /** Write a delivery answer out. */
  function send(reply: FastifyReply, answer: DeliveryAnswer) {
    if ('headers' in answer && answer.headers) reply.headers(answer.headers);
    switch (answer.kind) {
      case 'refused':
        return reply.code(answer.status).send(errorBody(answer.status, answer.message));
      case 'redirect':
        return reply.redirect(answer.location, 302);
      case 'not-modified':
        return reply.header('etag', answer.etag).code(304).send();
      case 'picture':
        return reply.header('etag', answer.etag).type(answer.contentType).send(answer.bytes);
    }
  }

  /** The entitlement URL partner pages embed (`page`: the configure page's preview, for the page's owner). */
  async function redirectToPicture(
    request: FastifyRequest,
    reply: FastifyReply,
    cameraName: string,
    imageName: string | null,
    page: string | null = null,
    pass: string | undefined = undefined,
  ) {
    if (page !== null) {
      if (!request.principal) return reply.code(401).send(errorBody(401, "Sign in to preview a page's picture"));
      if (!(await maySeePage(request, page)))
        return reply.code(403).send(errorBody(403, 'You can preview only your own pages'));
    }
    // A preview is the page's picture as its visitors get it, whatever the previewing user's own quality.
    const caller = page === null ? request.principal : null;
    const answer = await pictures.entitlement(
      {
        userId: caller?.actingUserId ?? null,
        roles: caller?.roles ?? [],
        // A framed player's pass names the partner page its frame stands for (routes/api/Image/embed.ts).
        referer: page ?? embedPassPage(linkSecret, pass) ?? request.headers.referer ?? null,
        accept: request.headers.accept,
      },
      cameraName,
      imageName,
    );
    return send(reply, answer);
  }

  const PICTURE_REDIRECT = Type.Null({
    description: "To the picture's immutable name (Location), private to the caller; signed above the public level",
  });

  app.get(
    '/pictures/:camera/:file',
    {
      schema: {
        summary:
          'A picture by its immutable name (the target of /api/Image/Get); levels above the public one need the signed link',
        params: Type.Object({ camera: Type.String({ maxLength: 64 }), file: Type.String({ maxLength: 80 }) }),
        querystring: Type.Object({
          e: Type.Optional(Type.String({ maxLength: 12 })),
          s: Type.Optional(Type.String({ maxLength: 64 })),
        }),
        response: {
          200: {
            description: 'The picture; its name says the level and the format',
            content: Object.fromEntries(
              ['image/jpeg', 'image/avif', 'image/webp'].map((type) => [
                type,
                { schema: Type.String({ contentEncoding: 'binary' }) },
              ]),
            ),
          },
          302: Type.Null(),
          304: Type.Null({ description: 'Not modified: the If-None-Match named its ETag' }),
          403: ErrorSchema,
          404: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const wanted = parsePicturePath(request.params.camera, request.params.file);
      if (!wanted) return reply.code(404).send(errorBody(404, 'Not a picture name'));
      const spelling = otherSpelling(request.url, pictureAddress(wanted, request.query));
      if (spelling) return reply.code(spelling.status).send(errorBody(spelling.status, spelling.message));
      const conditional = request.method === 'GET' || request.method === 'HEAD';
      const answer = await pictures.picture(
        wanted,
        request.query,
        (etag) => conditional && ifNoneMatchHits(request.headers['if-none-match'], etag),
      );
      return send(reply, answer);
    },
  );

  app.get(
    '/api/Image/Get/camera/:file',
    {
      config: { acceptsAccessCookie: true },
      schema: {
        summary: "A camera's current image at the caller's quality; `page`: as that referer page gets it (its owner)",
        params: Type.Object({ file: Type.String({ maxLength: 80 }) }),
        querystring: Type.Object({
          page: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
          pass: EmbedPass,
        }),
        response: { 302: PICTURE_REDIRECT, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const cameraName = cameraNameOf(request.params.file);
      if (!cameraName)
        return reply.code(400).send(errorBody(400, 'Not a valid camera image name (expected <camera>.jpg)'));
      return redirectToPicture(request, reply, cameraName, null, request.query.page ?? null, request.query.pass);
    },
  );

  app.get(
    '/api/Image/Get/camera/:camera/:file',
    {
      config: { acceptsAccessCookie: true },
      schema: {
        summary: 'One earlier image of a camera, by its capture time yyyyMMddHHmm',
        params: Type.Object({ camera: Type.String({ maxLength: 64 }), file: Type.String({ maxLength: 20 }) }),
        querystring: Type.Object({
          pass: EmbedPass,
        }),
        response: { 302: PICTURE_REDIRECT, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const imageName = request.params.file.endsWith('.jpg') ? request.params.file.slice(0, -4) : '';
      if (!isValidCameraName(request.params.camera) || !IMAGE_NAME.test(imageName)) {
        return reply.code(400).send(errorBody(400, 'Expected /api/Image/Get/camera/<camera>/<yyyyMMddHHmm>.jpg'));
      }
      return redirectToPicture(request, reply, request.params.camera, imageName, null, request.query.pass);
    },
  );
};

export default pictureRoutes;
