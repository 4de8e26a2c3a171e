import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { imageNameOf, isValidCameraName } from '@lakecams/contracts';
import { ADMIN_ROLE, errorBody } from '@lakecams/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { readFile } from 'node:fs/promises';
import { Type } from 'typebox';
import { announceImage, imageOf } from '../../../capture.ts';
import type { Database } from '../../../database.ts';
import { offlineReason } from '../../../camera-health.ts';
import { renderDemoImage } from '../../../demo-source.ts';
import { resolveImageQuality } from '../../../quality-resolution.ts';

const isoDay = (name: string) => `${name.slice(0, 4)}-${name.slice(4, 6)}-${name.slice(6, 8)}`;

const ErrorSchema = Type.Object({ statusCode: Type.Integer(), error: Type.String(), message: Type.String() });
const IMAGE_NAME = /^\d{12}$/;

/** `Richterswil.jpg` → `Richterswil`; null when it is not a camera name with `.jpg`. */
function cameraNameOf(file: string): string | null {
  const name = file.endsWith('.jpg') ? file.slice(0, -4) : null;
  return name && isValidCameraName(name) ? name : null;
}

const imageRoutes: FastifyPluginAsyncTypebox<{ demoSource: boolean }> = async (app, options) => {
  const db = app.db as Kysely<Database>;

  async function sendImage(request: FastifyRequest, reply: FastifyReply, cameraName: string, imageName: string | null) {
    const camera = await app.cameraDirectory.byName(cameraName);
    if (!camera) return reply.code(404).send(errorBody(404, `Unknown camera ${cameraName}`));
    let query = db
      .selectFrom('captures')
      .select('name')
      .where('webcamId', '=', camera.webcamId)
      .where('status', '=', 'done')
      .orderBy('name', 'desc')
      .limit(1);
    if (imageName) query = query.where('name', '=', imageName);
    const capture = await query.executeTakeFirst();
    if (!capture)
      return reply
        .code(404)
        .send(errorBody(404, imageName ? `No image ${imageName} of ${cameraName}` : `No image of ${cameraName} yet`));
    const referer = request.headers.referer ?? null;
    const { quality, reason } = resolveImageQuality(await app.cameraAccess(camera.webcamId), {
      userId: request.principal?.actingUserId ?? null,
      roles: request.principal?.roles ?? [],
      referer,
      today: isoDay(imageNameOf(new Date())),
    });
    const etag = `"${camera.webcamId}-${capture.name}-${quality}"`;
    // Who asks decides the quality: such answers must not be shared by caches.
    const personal = request.principal !== null || referer !== null;
    // A named image never changes; the current one changes at the next capture.
    const lifetime = imageName ? 'max-age=31536000, immutable' : 'max-age=30, must-revalidate';
    reply.header('cache-control', `${personal ? 'private' : 'public'}, ${lifetime}`);
    reply.header('vary', 'Authorization, Cookie, Referer');
    reply.header('x-image-quality', `${quality}; ${reason}`);
    // The offline layer replaces the picture once layers are drawn; until then the state is told.
    const offline = imageName ? null : await offlineReason(db, camera);
    if (offline) reply.header('x-camera-offline', offline);
    reply.header('etag', etag);
    reply.header('x-image-name', capture.name);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    const bytes = await readFile(app.imageStore.path(camera.name, capture.name, quality)).catch(() => null);
    if (!bytes)
      return reply.code(404).send(errorBody(404, `Image ${capture.name} of ${cameraName} is no longer stored`));
    return reply.type('image/jpeg').send(bytes);
  }

  app.get(
    '/api/Image/Get/camera/:file',
    {
      config: { acceptsAccessCookie: true },
      schema: {
        summary: "A camera's current image at the caller's quality",
        params: Type.Object({ file: Type.String({ maxLength: 80 }) }),
        response: { 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const cameraName = cameraNameOf(request.params.file);
      if (!cameraName)
        return reply.code(400).send(errorBody(400, 'Not a valid camera image name (expected <camera>.jpg)'));
      return sendImage(request, reply, cameraName, null);
    },
  );

  app.get(
    '/api/Image/Get/camera/:camera/:file',
    {
      config: { acceptsAccessCookie: true },
      schema: {
        summary: 'One earlier image of a camera, by its capture time yyyyMMddHHmm',
        params: Type.Object({ camera: Type.String({ maxLength: 64 }), file: Type.String({ maxLength: 20 }) }),
        response: { 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const imageName = request.params.file.endsWith('.jpg') ? request.params.file.slice(0, -4) : '';
      if (!isValidCameraName(request.params.camera) || !IMAGE_NAME.test(imageName)) {
        return reply.code(400).send(errorBody(400, 'Expected /api/Image/Get/camera/<camera>/<yyyyMMddHHmm>.jpg'));
      }
      return sendImage(request, reply, request.params.camera, imageName);
    },
  );

  app.post(
    '/api/Image/SetPosition/set',
    {
      preHandler: app.requireRole(ADMIN_ROLE),
      schema: {
        summary: 'Set the position of a camera from the image named by a timestamp on (Admin)',
        body: Type.Object({
          webcamId: Type.Integer({ minimum: 1 }),
          lat: Type.Number({ minimum: 47, maximum: 48 }),
          lng: Type.Number({ minimum: 5.9, maximum: 10.5 }),
          direction: Type.Integer({ minimum: 0, maximum: 359 }),
          name: Type.String({ pattern: '^[0-9]{12}$' }),
        }),
        response: { 200: Type.String(), 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const { webcamId, lat, lng, direction, name } = request.body;
      const camera = await app.cameraDirectory.setPosition(webcamId, { lat, lng, direction });
      if (!camera) return reply.code(404).send(errorBody(404, `Unknown camera ${webcamId}`));
      const updated = await db
        .updateTable('captures')
        .set({ lat, lng, direction })
        .where('webcamId', '=', webcamId)
        .where('name', '>=', name)
        .where('status', '=', 'done')
        .returning('name')
        .execute();
      for (const { name: imageName } of updated) await announceImage(app.bus, imageOf(camera, imageName));
      return reply.type('text/plain').send('true');
    },
  );

  if (options.demoSource) {
    app.get(
      '/api/Image/DemoSource/:file',
      {
        schema: {
          summary: 'Built-in demo camera picture (embedded mode)',
          params: Type.Object({ file: Type.String({ maxLength: 80 }) }),
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
