import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { imageNameOf, isValidCameraName, POSITION_RULES } from '@lakecams/contracts';
import {
  ADMIN_ROLE,
  booleanTextResponse,
  replyTrue,
  errorBody,
  ifNoneMatchHits,
  validateWith,
  ErrorSchema,
  Id,
  Minute,
  pictureCacheLookups,
  unavailable,
} from '@lakecams/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { Type } from 'typebox';
import { captureTick, imageOf } from '../../../capture/capture-tick.ts';
import { uploadProblem } from '../../../capture/picture-ingest.ts';
import { createPictureDelivery, type DeliveryAnswer } from '../../../delivery/picture-delivery.ts';
import { otherSpelling } from '../../../delivery/canonical-address.ts';
import { embedPassPage } from '../../../delivery/embed-pass.ts';
import embedRoutes from './embed.ts';
import { parsePicturePath, pictureAddress } from '../../../delivery/picture-links.ts';

const IMAGE_NAME = /^\d{12}$/;
/** How far an admin's clock may run ahead when the position dialog names the current minute. */
const CLOCK_SKEW_MS = 5 * 60_000;
/** Like a capture's size limit (decisions.md, "Camera URLs"). */
const UPLOAD_BYTES = 25 * 1024 * 1024;

/** `Richterswil.jpg` → `Richterswil`; null when it is not a camera name with `.jpg`. */
function cameraNameOf(file: string): string | null {
  const name = file.endsWith('.jpg') ? file.slice(0, -4) : null;
  return name && isValidCameraName(name) ? name : null;
}

const imageRoutes: FastifyPluginAsyncTypebox<{
  /** Signs links to levels above the public one; the same secret on every replica. `baseUrl`: a cookie-less host. */
  pictureLinks?: { secret?: string; baseUrl?: string; windowSeconds?: number };
  composedCacheBytes?: number;
  recentPicturesBytes?: number;
}> = async (app, options) => {
  await app.register(multipart, { limits: { fileSize: UPLOAD_BYTES, files: 1, fields: 0 } });
  const linkSecret = options.pictureLinks?.secret ?? randomBytes(32).toString('hex');
  const delivery = createPictureDelivery({
    deliveryState: (name) => app.deliveryState(name),
    namedCapture: (webcamId, name) => app.captures.named(webcamId, name),
    layersOf: (webcamId, url) => app.layersOf(webcamId, url),
    readPicture: (camera, name, quality, encoding) => app.imageStore.read(camera, name, quality, encoding),
    links: {
      secret: linkSecret,
      baseUrl: options.pictureLinks?.baseUrl ?? '',
      windowSeconds: options.pictureLinks?.windowSeconds,
    },
    recentPicturesBytes: options.recentPicturesBytes ?? 32 * 1024 * 1024,
    composedCacheBytes: options.composedCacheBytes,
    cacheLookups: {
      recent: pictureCacheLookups(app.metrics, 'recent'),
      composed: pictureCacheLookups(app.metrics, 'composed'),
    },
  });
  app.onLayersChange((webcamId) => delivery.forgetLayers(webcamId));
  app.onCameraChange(({ camera }) => delivery.forgetCamera(camera.webcamId));

  /** An Admin acting as itself, or the owner of the referer page (svc-referer knows). */
  async function maySeePage(request: FastifyRequest, page: string): Promise<boolean> {
    const principal = request.principal;
    if (!principal) return false;
    if (principal.roles.includes(ADMIN_ROLE) && principal.actingUserId === principal.userId) return true;
    return app
      .pageOwned(principal.actingUserId, page)
      .then((owned) => owned === true)
      .catch(unavailable('Page owners cannot be read right now, please retry'));
  }

  await app.register(embedRoutes, { secret: linkSecret, maySeePage });

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
    const answer = await delivery.entitlement(
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
      const answer = await delivery.picture(
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
          pass: Type.Optional(Type.String({ maxLength: 3000, description: "An embedded player frame's page pass" })),
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
          pass: Type.Optional(Type.String({ maxLength: 3000, description: "An embedded player frame's page pass" })),
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

  app.post(
    '/api/Image/SetPosition/set',
    {
      onRequest: app.requireRole(ADMIN_ROLE),
      // The position dialog's rules and messages: the server refuses what the form refuses.
      preValidation: validateWith(POSITION_RULES, 'body'),
      schema: {
        summary: 'Set the position of a camera from the image named by a timestamp on (Admin)',
        body: Type.Object({
          webcamId: Id(),
          lat: Type.Number({ minimum: 47, maximum: 48 }),
          lng: Type.Number({ minimum: 5.9, maximum: 10.5 }),
          direction: Type.Integer({ minimum: 0, maximum: 359 }),
          name: Minute(),
        }),
        response: { ...booleanTextResponse, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const { webcamId, lat, lng, direction, name } = request.body;
      // The position holds from that minute on and is the camera's at once: a later minute would say otherwise.
      if (name > imageNameOf(new Date(Date.now() + CLOCK_SKEW_MS)))
        return reply.code(400).send(errorBody(400, `body/name lies in the future: ${name} has no picture yet`));
      const camera = await app.captures.movePosition(webcamId, name, { lat, lng, direction }, imageOf);
      if (!camera) return reply.code(404).send(errorBody(404, `Unknown camera ${webcamId}`));
      return replyTrue(reply);
    },
  );

  app.post(
    '/api/Image/Upload',
    {
      onRequest: app.requireRole(ADMIN_ROLE),
      config: {
        multipartBody: Type.Object({ file: Type.String({ contentEncoding: 'binary', description: 'The picture' }) }),
      },
      schema: {
        summary: "Upload a picture by hand (multipart field file); it becomes the camera's current image (Admin)",
        consumes: ['multipart/form-data'],
        querystring: Type.Object({ webcamId: Id() }),
        response: {
          ...booleanTextResponse,
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
          409: ErrorSchema,
          413: ErrorSchema,
          415: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart())
        return reply.code(415).send(errorBody(415, 'Send the picture as multipart/form-data'));
      const camera = await app.cameraDirectory.byId(request.query.webcamId);
      if (!camera) return reply.code(404).send(errorBody(404, `Unknown camera ${request.query.webcamId}`));
      let bytes: Buffer;
      try {
        const file = await request.file();
        if (file?.fieldname !== 'file')
          return reply.code(400).send(errorBody(400, 'The picture goes in the field "file"'));
        bytes = await file.toBuffer();
      } catch (error) {
        // Limits answer with their own status (413); a body that is not multipart as announced is the client's.
        if ((error as { statusCode?: number }).statusCode) throw error;
        return reply.code(400).send(errorBody(400, 'The upload is not valid multipart/form-data'));
      }
      // Refused before it is recorded: a bad upload leaves the camera's history as it was.
      const problem = await uploadProblem(bytes);
      if (problem) return reply.code(problem.status).send(errorBody(problem.status, problem.message));
      const result = await captureTick(app.captureContext, camera, new Date(), 1, bytes);
      if (result.outcome === 'skipped')
        return reply.code(409).send(errorBody(409, 'A capture of this minute is running, please retry shortly'));
      if (result.outcome === 'failed') return reply.code(400).send(errorBody(400, result.error));
      return replyTrue(reply);
    },
  );
};

export default imageRoutes;
