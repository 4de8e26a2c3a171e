import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  exceedsPictureLimit,
  imageNameOf,
  isValidCameraName,
  MAX_PICTURE_PIXELS,
  PICTURE_FORMATS,
  PICTURE_TOO_LARGE_MESSAGE,
  POSITION_RULES,
  type Quality,
} from '@lakecams/contracts';
import {
  ADMIN_ROLE,
  booleanTextResponse,
  replyTrue,
  errorBody,
  replyNotModified,
  validateWith,
  ErrorSchema,
  Id,
  mediaResponse,
  Minute,
  pictureCacheLookups,
  unavailable,
} from '@lakecams/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { Type } from 'typebox';
import { captureTick, imageOf } from '../../../capture/capture-tick.ts';
import { renderDemoImage } from '../../../capture/demo-source.ts';
import { resolveImageQuality } from '../../../delivery/quality-resolution.ts';
import { PictureCache } from '../../../delivery/picture-cache.ts';
import {
  composeLayers,
  isEmptySelection,
  type LayerSelection,
  selectionKey,
  selectLayers,
} from '../../../delivery/layer-composition.ts';
import { CONTENT_TYPES, FILE_EXTENSIONS, hasModernVariants, type PictureEncoding } from '../../../capture/formats.ts';
import type { AccessBooking } from '../../../database.ts';
import type { DeliveryState } from '../../../plugins/app/delivery-state.ts';
import {
  checkSignature,
  contentPart,
  layersPart,
  pagePart,
  type PictureLink,
  parsePicturePath,
  picturePath,
  qualityRank,
  SIGNED_LINK_WINDOW_S,
  signedQuery,
} from '../../../delivery/picture-links.ts';
import { pictureFormatFor } from '../../../delivery/picture-format.ts';

const isoDay = (name: string) => `${name.slice(0, 4)}-${name.slice(4, 6)}-${name.slice(6, 8)}`;

const IMAGE_NAME = /^\d{12}$/;
/** How far an admin's clock may run ahead when the position dialog names the current minute. */
const CLOCK_SKEW_MS = 5 * 60_000;
/** Like a capture's size limit (decisions.md, "Camera URLs"). */
const UPLOAD_BYTES = 25 * 1024 * 1024;

/** Why an upload is refused (status and message), or null when it is a picture within the pixel limit that decodes in full. */
async function uploadProblem(bytes: Buffer): Promise<{ status: 400 | 413; message: string } | null> {
  const notAnImage = { status: 400, message: 'The file is not an image' } as const;
  if (bytes.length === 0) return notAnImage;
  try {
    // The header alone, so that a picture over the limit is told so rather than "not an image".
    const header = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (!PICTURE_FORMATS.includes(header.format ?? '')) return notAnImage;
    if (exceedsPictureLimit(header)) return { status: 413, message: PICTURE_TOO_LARGE_MESSAGE };
    await sharp(bytes, { failOn: 'error', limitInputPixels: MAX_PICTURE_PIXELS }).stats();
    return null;
  } catch {
    return notAnImage;
  }
}

/** `Richterswil.jpg` → `Richterswil`; null when it is not a camera name with `.jpg`. */
function cameraNameOf(file: string): string | null {
  const name = file.endsWith('.jpg') ? file.slice(0, -4) : null;
  return name && isValidCameraName(name) ? name : null;
}

const imageRoutes: FastifyPluginAsyncTypebox<{
  demoSource: boolean;
  /** Signs links to levels above the public one; the same secret on every replica. `baseUrl`: a cookie-less host. */
  pictureLinks?: { secret?: string; baseUrl?: string };
  composedCacheBytes?: number;
  recentPicturesBytes?: number;
}> = async (app, options) => {
  await app.register(multipart, { limits: { fileSize: UPLOAD_BYTES, files: 1, fields: 0 } });
  const cache = new PictureCache(options.composedCacheBytes, pictureCacheLookups(app.metrics, 'composed'));
  app.onLayersChange((webcamId) => cache.forgetCamera(webcamId));
  const composing = new Map<string, Promise<Buffer | null>>();
  // Pictures asked for recently stay in memory, keyed by their content (an upload can replace a minute's).
  const pictures = new PictureCache(
    options.recentPicturesBytes ?? 32 * 1024 * 1024,
    pictureCacheLookups(app.metrics, 'recent'),
  );
  app.onCameraChange(({ camera }) => pictures.forgetCamera(camera.webcamId));
  async function recentPictures(
    camera: { webcamId: number; name: string },
    capture: { name: string; contentHash: string | null },
    quality: Quality,
    encoding: PictureEncoding,
  ): Promise<Buffer | null> {
    const imageName = capture.name;
    const content = `${capture.contentHash ?? 'unknown'}|${encoding}`;
    const key = PictureCache.key(camera.webcamId, imageName, quality, content);
    const known = pictures.get(key);
    if (known) return known;
    const bytes = await app.imageStore.read(camera.name, imageName, quality, encoding);
    if (bytes) pictures.set(key, bytes);
    return bytes;
  }
  /** From the cache, or composed once however many requests ask at the same time. */
  async function composed(key: string, compose: () => Promise<Buffer | null>): Promise<Buffer | null> {
    const cached = cache.get(key);
    if (cached) return cached;
    let pending = composing.get(key);
    if (!pending) {
      pending = compose().finally(() => composing.delete(key));
      composing.set(key, pending);
      const result = await pending;
      if (result) cache.set(key, result);
      return result;
    }
    return pending;
  }

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

  const links = {
    secret: options.pictureLinks?.secret ?? randomBytes(32).toString('hex'),
    baseUrl: options.pictureLinks?.baseUrl ?? '',
  };

  // Earlier captures looked up while a delivery state lives (≤ 5 s, dropped at the camera's next capture or
  // upload), so a picture asked for again and again costs one query, not one per request.
  const namedCaptures = new WeakMap<DeliveryState, Map<string, Promise<DeliveryState['latest']>>>();
  const NAMED_CAPTURES_PER_STATE = 256;

  /** The capture a picture request names, or the camera's current one. */
  function captureOf(state: DeliveryState, imageName: string | null): Promise<DeliveryState['latest']> {
    // Most requests name the current picture, which the delivery state already holds.
    if (!imageName || state.latest?.name === imageName) return Promise.resolve(state.latest);
    const known = namedCaptures.get(state) ?? new Map<string, Promise<DeliveryState['latest']>>();
    namedCaptures.set(state, known);
    const cached = known.get(imageName);
    if (cached) return cached;
    const lookup = app.captures.named(state.camera.webcamId, imageName);
    if (known.size < NAMED_CAPTURES_PER_STATE) {
      known.set(imageName, lookup);
      lookup.catch(() => known.delete(imageName));
    }
    return lookup;
  }

  /** What anybody gets: no user, no page. Pictures up to this level need no signed link. */
  const publicQuality = (state: DeliveryState) =>
    resolveImageQuality(state.access, {
      userId: null,
      roles: [],
      referer: null,
      today: isoDay(imageNameOf(new Date())),
    }).quality;

  /** A booked page's layers on a capture; the offline layer only on the current picture of a camera gone silent. */
  async function layersFor(state: DeliveryState, booking: AccessBooking, captureName: string) {
    const offline = state.latest?.name === captureName && state.offline !== null;
    const selection = selectLayers(
      await app.layersOf(state.camera.webcamId, booking.url),
      captureName,
      state.camera.intervalMin,
      offline,
    );
    return isEmptySelection(selection) ? null : { selection, key: selectionKey(selection) };
  }

  /**
   * The entitlement URL partner pages embed: it decides the caller's level (user, Premium, booked page) and
   * redirects to the picture's immutable name, which caches may share. Above the public level that name is
   * signed and expires (docs/decisions.md, "Pictures behind a CDN"); the redirect itself is private.
   */
  async function redirectToPicture(
    request: FastifyRequest,
    reply: FastifyReply,
    cameraName: string,
    imageName: string | null,
    page: string | null = null,
  ) {
    // The configure page previews a partner page's picture, layers and all, for the page's owner.
    if (page !== null) {
      if (!request.principal) return reply.code(401).send(errorBody(401, "Sign in to preview a page's picture"));
      if (!(await maySeePage(request, page)))
        return reply.code(403).send(errorBody(403, 'You can preview only your own pages'));
    }
    const state = await app.deliveryState(cameraName);
    if (!state) return reply.code(404).send(errorBody(404, `Unknown camera ${cameraName}`));
    const capture = await captureOf(state, imageName);
    if (!capture)
      return reply
        .code(404)
        .send(errorBody(404, imageName ? `No image ${imageName} of ${cameraName}` : `No image of ${cameraName} yet`));
    const referer = page ?? request.headers.referer ?? null;
    // A preview is the page's picture as its visitors get it, whatever the previewing user's own quality.
    const caller = page === null ? request.principal : null;
    const { quality, reason, booking } = resolveImageQuality(state.access, {
      userId: caller?.actingUserId ?? null,
      roles: caller?.roles ?? [],
      referer,
      today: isoDay(imageNameOf(new Date())),
    });
    const layers = booking ? await layersFor(state, booking, capture.name) : null;
    const path = picturePath({
      camera: state.camera.name,
      imageName: capture.name,
      quality,
      content: contentPart(capture.contentHash),
      // AVIF or WebP when the client takes them; layers are drawn on the JPEG, then encoded as negotiated.
      encoding: pictureFormatFor(request.headers.accept, quality),
      ...(layers && booking ? { layers: { page: pagePart(booking.url), key: layersPart(layers.key) } } : {}),
    });
    const signed = layers || qualityRank(quality) > qualityRank(publicQuality(state));
    const link = signed ? signedQuery(links.secret, path) : null;
    const now = Math.floor(Date.now() / 1000);
    // The current picture changes at the next capture; a named one's link lasts as long as its signature.
    const lifetime = !imageName ? 30 : link ? Math.max(0, link.expires - now - SIGNED_LINK_WINDOW_S) : 3600;
    reply.header('cache-control', `private, max-age=${lifetime}`);
    reply.header('vary', 'Authorization, Cookie, Referer, Accept');
    reply.header('x-image-quality', `${quality}; ${reason}`);
    reply.header('x-image-name', capture.name);
    if (!imageName && state.offline) reply.header('x-camera-offline', state.offline);
    if (layers) reply.header('x-image-layers', layers.key);
    return reply.redirect(`${links.baseUrl}${path}${link ? `?${link.query}` : ''}`, 302);
  }

  /** A picture's bytes by their immutable name: the same for everybody who may have it, so caches share it. */
  async function sendPicture(
    request: FastifyRequest<{ Querystring: { e?: string; s?: string } }>,
    reply: FastifyReply,
    wanted: PictureLink,
  ) {
    const state = await app.deliveryState(wanted.camera);
    const capture = state && (await captureOf(state, wanted.imageName));
    if (!state || !capture || contentPart(capture.contentHash) !== wanted.content)
      return reply
        .code(404)
        .send(errorBody(404, `No picture ${wanted.imageName} of ${wanted.camera} with this content`));
    if (wanted.encoding !== 'jpeg' && !hasModernVariants(wanted.quality))
      return reply.code(404).send(errorBody(404, `${wanted.quality} pictures exist only as JPEG`));
    const path = picturePath(wanted);
    let expires: number | null = null;
    if (wanted.layers || qualityRank(wanted.quality) > qualityRank(publicQuality(state))) {
      const check = checkSignature(links.secret, path, request.query);
      if (!check.valid) {
        const why = check.reason === 'expired' ? 'has expired' : 'is not signed for this level';
        return reply
          .code(403)
          .send(errorBody(403, `This picture link ${why}; ask /api/Image/Get/camera/${wanted.camera}.jpg again`));
      }
      expires = check.expires;
    }
    let selection: LayerSelection | null = null;
    if (wanted.layers) {
      const { page, key } = wanted.layers;
      const booking = state.access?.bookings.find((b) => pagePart(b.url) === page);
      const layers = booking ? await layersFor(state, booking, capture.name) : null;
      if (!booking || !layers || layersPart(layers.key) !== key)
        return reply.code(404).send(errorBody(404, "These layers are no longer the page's; ask for the picture again"));
      selection = layers.selection;
      reply.header('x-image-layers', layers.key);
    }
    const now = Math.floor(Date.now() / 1000);
    reply.header(
      'cache-control',
      expires === null
        ? 'public, max-age=31536000, immutable'
        : `public, max-age=${Math.max(0, expires - now)}, immutable`,
    );
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', 'x-image-quality, x-image-name');
    reply.header('x-image-quality', wanted.quality);
    reply.header('x-image-name', capture.name);
    // The name is the content: it is its own validator.
    if (replyNotModified(request, reply, `"${path.slice(path.lastIndexOf('/') + 1)}"`)) return reply;
    const cacheKey = PictureCache.key(
      state.camera.webcamId,
      capture.name,
      wanted.quality,
      `${selection ? selectionKey(selection) : ''}|${capture.contentHash}|${wanted.encoding}`,
    );
    let bytes: Buffer | null;
    if (selection) {
      const layered = selection;
      reply.header('x-layer-cache', cache.has(cacheKey) ? 'hit' : 'miss');
      bytes = await composed(cacheKey, async () => {
        const picture = await recentPictures(state.camera, capture, wanted.quality, 'jpeg');
        return picture && composeLayers(picture, capture.width ?? 0, layered, wanted.encoding);
      });
    } else {
      bytes = await recentPictures(state.camera, capture, wanted.quality, wanted.encoding);
      // A picture stored before its level had AVIF and WebP copies: its JPEG, under the JPEG's own name.
      if (!bytes && wanted.encoding !== 'jpeg') {
        const jpeg = picturePath({ ...wanted, encoding: 'jpeg' });
        // The signature covers the path, so the JPEG's name needs its own.
        const query = expires === null ? '' : `?${signedQuery(links.secret, jpeg).query}`;
        return reply.redirect(`${links.baseUrl}${jpeg}${query}`, 302);
      }
    }
    if (!bytes)
      return reply.code(404).send(errorBody(404, `Image ${capture.name} of ${wanted.camera} is no longer stored`));
    // Saved from the browser, an AVIF or WebP picture gets its own extension.
    const file = `${wanted.camera}-${capture.name}.${FILE_EXTENSIONS[wanted.encoding]}`;
    return reply
      .header('content-disposition', `inline; filename="${file}"`)
      .type(CONTENT_TYPES[wanted.encoding])
      .send(bytes);
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
          403: ErrorSchema,
          404: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const wanted = parsePicturePath(request.params.camera, request.params.file);
      if (!wanted) return reply.code(404).send(errorBody(404, 'Not a picture name'));
      return sendPicture(request, reply, wanted);
    },
  );

  app.get(
    '/api/Image/Get/camera/:file',
    {
      config: { acceptsAccessCookie: true },
      schema: {
        summary: "A camera's current image at the caller's quality; `page`: as that referer page gets it (its owner)",
        params: Type.Object({ file: Type.String({ maxLength: 80 }) }),
        querystring: Type.Object({ page: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })) }),
        response: { 302: PICTURE_REDIRECT, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const cameraName = cameraNameOf(request.params.file);
      if (!cameraName)
        return reply.code(400).send(errorBody(400, 'Not a valid camera image name (expected <camera>.jpg)'));
      return redirectToPicture(request, reply, cameraName, null, request.query.page ?? null);
    },
  );

  app.get(
    '/api/Image/Get/camera/:camera/:file',
    {
      config: { acceptsAccessCookie: true },
      schema: {
        summary: 'One earlier image of a camera, by its capture time yyyyMMddHHmm',
        params: Type.Object({ camera: Type.String({ maxLength: 64 }), file: Type.String({ maxLength: 20 }) }),
        response: { 302: PICTURE_REDIRECT, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const imageName = request.params.file.endsWith('.jpg') ? request.params.file.slice(0, -4) : '';
      if (!isValidCameraName(request.params.camera) || !IMAGE_NAME.test(imageName)) {
        return reply.code(400).send(errorBody(400, 'Expected /api/Image/Get/camera/<camera>/<yyyyMMddHHmm>.jpg'));
      }
      return redirectToPicture(request, reply, request.params.camera, imageName);
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

  if (options.demoSource) {
    app.get(
      '/api/Image/DemoSource/:file',
      {
        schema: {
          summary: 'Built-in demo camera picture (embedded mode)',
          params: Type.Object({ file: Type.String({ maxLength: 80 }) }),
          response: { 200: mediaResponse('The picture', ['image/jpeg']), 400: ErrorSchema },
        },
      },
      async (request, reply) => {
        const cameraName = cameraNameOf(request.params.file);
        if (!cameraName) return reply.code(400).send(errorBody(400, 'Not a valid camera image name'));
        return reply
          .header('cache-control', 'no-store')
          .type('image/jpeg')
          .send(await renderDemoImage(cameraName, new Date()));
      },
    );
  }
};

export default imageRoutes;
