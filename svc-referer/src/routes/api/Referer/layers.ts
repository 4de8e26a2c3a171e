import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  LAYER_LEVELS,
  type LayerLevel,
  MAX_TIME_LAYERS_PER_CAMERA,
  NEW_LAYER_CRON,
  validateForm,
} from '@lakecams/contracts';
import { LAYER_RULES } from '@lakecams/contracts/cron';
import {
  booleanTextResponse,
  errorBody,
  Id,
  isDatabaseId,
  mediaResponse,
  replyNotModified,
  replyTrue,
} from '@lakecams/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { LAYER_UPLOAD_BYTES, normalizeLayerImage } from '../../../layer-image.ts';
import type { RefererComposition } from '../../../composition.ts';
import type { StoredLayer } from '../../../repositories/layer-repository.ts';
import { ErrorSchema, LayerLevelSchema, LayerSchema, WebcamSchema } from '../../../schemas.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 503: ErrorSchema };
const LayerQuery = Type.Object({ layerId: Id(), cameraId: Id() });
const wire = ({ refererUserId: _owner, imageHash: _hash, ...layer }: StoredLayer) => layer;

/** A referer page's layers per camera: own pages only, unless Admin (docs/decisions.md, "Who may set layers where"). */
const layerRoutes: FastifyPluginAsyncTypebox<Pick<RefererComposition, 'access' | 'layers'>> = async (
  app,
  { access: refererAccess, layers: layerRepository },
) => {
  await app.register(multipart, { limits: { fileSize: LAYER_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 4096 } });

  const forbidden = (reply: FastifyReply, message: string) => reply.code(403).send(errorBody(403, message));

  /** The caller's page ids for `url` that have `cameraId` booked; an Admin needs no booking. */
  async function pagesWithCamera(request: FastifyRequest, url: string, cameraId: number) {
    const pages = await refererAccess.pagesOf(request, url);
    if (pages.length === 0 || refererAccess.isAdmin(request)) return pages;
    const cameras = await refererAccess.camerasOf(request, url);
    return cameras.some((c) => c.id === cameraId) ? pages : [];
  }

  /** A layer the caller may touch on this camera, or the reply already sent. */
  async function ownLayer(request: FastifyRequest, reply: FastifyReply, layerId: number, cameraId: number) {
    const layer = await layerRepository.get(layerId);
    if (!layer || layer.cameraId !== cameraId) {
      reply.code(404).send(errorBody(404, `No layer ${layerId} on camera ${cameraId}`));
      return null;
    }
    const pages = await refererAccess.pagesOf(request, layer.url);
    if (!pages.includes(layer.refererUserId)) {
      forbidden(reply, 'This layer belongs to another page');
      return null;
    }
    return layer;
  }

  app.get(
    '/api/Referer/GetCameras/Cameras',
    {
      onRequest: app.requireUser,
      schema: {
        summary: 'Cameras the caller may set layers on: booked for its pages (all for an Admin); `url` narrows',
        querystring: Type.Object({ url: Type.Optional(Type.String({ maxLength: 2000 })) }),
        response: { 200: Type.Array(WebcamSchema), ...errors },
      },
    },
    async (request) => refererAccess.camerasOf(request, request.query.url || undefined),
  );

  app.get(
    '/api/Referer/GetLayer/layer',
    {
      onRequest: app.requireUser,
      schema: {
        summary: "A page's layers of one level on a camera",
        querystring: Type.Object({
          url: Type.String({ minLength: 1, maxLength: 2000 }),
          level: LayerLevelSchema,
          cameraId: Id(),
        }),
        response: { 200: Type.Array(LayerSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { url, level, cameraId } = request.query;
      const pages = await pagesWithCamera(request, url, cameraId);
      if (pages.length === 0) return forbidden(reply, `You cannot set up ${url} on camera ${cameraId}`);
      return (await layerRepository.list(pages, cameraId, level)).map(wire);
    },
  );

  app.get(
    '/api/Referer/GetLayerImage/layerimage',
    {
      onRequest: app.requireUser,
      // Previews are <img> elements, which cannot send the bearer header.
      config: { acceptsAccessCookie: true },
      schema: {
        summary: "A layer's image (PNG)",
        querystring: LayerQuery,
        response: { 200: mediaResponse("The layer's PNG", ['image/png']), 304: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      const layer = await ownLayer(request, reply, request.query.layerId, request.query.cameraId);
      if (!layer) return reply;
      const image = await layerRepository.image(layer.id);
      if (!image) return reply.code(404).send(errorBody(404, `No layer ${layer.id}`));
      reply.header('cache-control', 'private, no-cache');
      if (replyNotModified(request, reply, `"${layer.imageHash}"`)) return reply;
      return reply.type('image/png').send(image);
    },
  );

  app.delete(
    '/api/Referer/DeleteLayer/layer',
    {
      onRequest: app.requireUser,
      schema: { summary: 'Delete a layer', querystring: LayerQuery, response: { ...booleanTextResponse, ...errors } },
    },
    async (request, reply) => {
      const layer = await ownLayer(request, reply, request.query.layerId, request.query.cameraId);
      if (!layer) return reply;
      await layerRepository.remove(layer);
      return replyTrue(reply);
    },
  );

  app.post(
    '/api/Referer/SetLayer/layer',
    {
      onRequest: app.requireUser,
      config: {
        multipartBody: Type.Object({
          url: Type.String({ maxLength: 2000, description: 'The partner page' }),
          cameraId: Type.String({ pattern: '^[0-9]+$', maxLength: 10 }),
          level: Type.Optional(Type.Enum([...LAYER_LEVELS], { default: 'BASE' })),
          id: Type.Optional(
            Type.String({ pattern: '^[0-9]*$', maxLength: 10, description: 'Empty or 0 for a new layer' }),
          ),
          cron: Type.Optional(
            Type.String({
              maxLength: LAYER_RULES.cron.maxLength.value,
              description: 'When a TIME layer shows (croner syntax)',
            }),
          ),
          enabled: Type.Optional(Type.Enum(['true', 'false'], { default: 'true' })),
          file: Type.Optional(
            Type.String({
              contentEncoding: 'binary',
              description: "PNG or JPEG for the camera's full size; a new layer needs one",
            }),
          ),
        }),
      },
      schema: {
        summary: 'Save a layer (multipart: url, level, id, file, enabled, cron, cameraId); returns its id',
        consumes: ['multipart/form-data'],
        response: {
          200: mediaResponse('The id of the saved layer', ['text/plain'], { type: 'string', pattern: '^[0-9]+$' }),
          ...errors,
          413: ErrorSchema,
          415: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) return reply.code(415).send(errorBody(415, 'Send the layer as multipart/form-data'));
      const fields: Record<string, string> = {};
      let file: Buffer | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file')
              return reply.code(400).send(errorBody(400, 'The image goes in the field "file"'));
            file = await part.toBuffer();
          } else {
            fields[part.fieldname] = String(part.value ?? '');
          }
        }
      } catch (error) {
        // Limits answer with their own status (413); a body that is not multipart as announced is the client's.
        if ((error as { statusCode?: number }).statusCode) throw error;
        return reply.code(400).send(errorBody(400, 'The upload is not valid multipart/form-data'));
      }
      const url = (fields.url ?? '').trim();
      const level = (fields.level || 'BASE').toUpperCase() as LayerLevel;
      const cron = fields.cron ?? NEW_LAYER_CRON;
      // Decimal digits only, as in query strings: `1e3` or `0x10` would name another camera.
      const digits = (text: string | undefined) => (text !== undefined && /^[0-9]{1,10}$/.test(text) ? text : 'x');
      const cameraId = Number(digits(fields.cameraId));
      const id = fields.id && fields.id !== '0' ? Number(digits(fields.id)) : undefined;
      const enabled = (fields.enabled ?? 'true').toLowerCase();

      // A form's fields are text the schema does not see: the same rules as for JSON bodies.
      const nul = Object.keys(fields).find((name) => `${name}${fields[name]}`.includes('\u0000'));
      if (nul !== undefined) return reply.code(400).send(errorBody(400, `${nul} must not contain NUL characters`));
      if (!url) return reply.code(400).send(errorBody(400, 'Url wird benötigt'));
      if (url.length > 2000) return reply.code(400).send(errorBody(400, 'url must be at most 2000 characters'));
      if (!LAYER_LEVELS.includes(level))
        return reply.code(400).send(errorBody(400, `Level must be one of ${LAYER_LEVELS.join(', ')}`));
      const cronError = validateForm(LAYER_RULES, { cron }).cron;
      if (cronError) return reply.code(400).send(errorBody(400, cronError));
      if (!isDatabaseId(cameraId)) return reply.code(400).send(errorBody(400, 'cameraId must be a camera id'));
      if (id !== undefined && !isDatabaseId(id))
        return reply.code(400).send(errorBody(400, 'id must be empty for a new layer or a layer id'));
      if (enabled !== 'true' && enabled !== 'false')
        return reply.code(400).send(errorBody(400, 'enabled must be true or false'));
      if (id === undefined && !file) return reply.code(400).send(errorBody(400, 'A new layer needs an image'));

      const pages = await pagesWithCamera(request, url, cameraId);
      if (pages.length === 0) return forbidden(reply, `You cannot set up ${url} on camera ${cameraId}`);
      const existing = id === undefined ? undefined : await layerRepository.get(id);
      if (id !== undefined && (!existing || existing.cameraId !== cameraId))
        return reply.code(404).send(errorBody(404, `No layer ${id} on camera ${cameraId}`));
      if (existing && !pages.includes(existing.refererUserId))
        return forbidden(reply, 'This layer belongs to another page');
      if (
        level === 'TIME' &&
        existing?.level !== 'TIME' &&
        (await layerRepository.countTimeLayers(cameraId)) >= MAX_TIME_LAYERS_PER_CAMERA
      )
        return reply
          .code(400)
          .send(errorBody(400, `A camera carries at most ${MAX_TIME_LAYERS_PER_CAMERA} advertisements`));

      const image = file ? await normalizeLayerImage(file) : undefined;
      if (image && 'status' in image) return reply.code(image.status).send(errorBody(image.status, image.message));
      const input = {
        refererUserId: existing?.refererUserId ?? (pages[0] as number),
        cameraId,
        level,
        cron: cron.trim(),
        enabled: enabled === 'true',
      };
      let layerId: number;
      if (existing) {
        await layerRepository.update(existing.id, input, image);
        layerId = existing.id;
      } else {
        layerId = await layerRepository.insert(input, image as { png: Buffer; hash: string });
      }
      return reply.type('text/plain').send(String(layerId));
    },
  );
};

export default layerRoutes;
