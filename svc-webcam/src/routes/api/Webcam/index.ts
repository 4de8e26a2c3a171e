import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { imageNameOf } from '@lakecams/contracts';
import { Day, errorBody, Id, replyNotModified } from '@lakecams/service-kit';
import { Type } from 'typebox';
import { presentCamera } from '../../../camera-presentation.ts';
import { CameraListItemSchema, ErrorSchema, ImageSchema, WebcamSchema } from '../../../schemas.ts';
import type { WebcamComposition } from '../../../composition.ts';

const NameFilter = Type.Object({ name: Type.Optional(Type.String({ maxLength: 64 })) });

/** `2026-11-22` → `20261122`; today (local) when absent. */
function dayKey(day: string | undefined): string {
  return day ? day.replaceAll('-', '') : imageNameOf(new Date()).slice(0, 8);
}
const isoDay = (key: string) => `${key.slice(0, 4)}-${key.slice(4, 6)}-${key.slice(6, 8)}`;

const webcamRoutes: FastifyPluginAsyncTypebox<Pick<WebcamComposition, 'webcams' | 'cameraList'>> = async (
  app,
  { webcams, cameraList },
) => {
  app.get(
    '/api/Webcam/GetImages',
    {
      schema: {
        summary: 'Cameras that have images, each with its latest image',
        querystring: NameFilter,
        response: { 200: Type.Array(CameraListItemSchema), 304: Type.Null(), 400: ErrorSchema },
      },
    },
    async (request, reply) => {
      const list = await cameraList.response(request.query.name);
      reply
        .header('vary', 'Accept-Encoding')
        .header('cache-control', 'no-cache')
        .type('application/json; charset=utf-8');
      if (replyNotModified(request, reply, list.etag)) return reply;
      if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
        return reply.header('content-encoding', 'gzip').send(list.gzip as never);
      }
      return reply.send(list.json as never);
    },
  );

  app.get(
    '/api/Webcam/GetCameras',
    {
      schema: {
        summary: 'All cameras, optionally one by name',
        querystring: NameFilter,
        response: { 200: Type.Array(WebcamSchema), 400: ErrorSchema },
      },
    },
    async (request) =>
      (await webcams.cameras({ name: request.query.name })).map((camera) => presentCamera(camera, request.principal)),
  );

  app.get(
    '/api/Webcam/GetCameraById',
    {
      schema: {
        summary: 'One camera',
        querystring: Type.Object({ id: Id() }),
        response: { 200: WebcamSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const webcam = await webcams.byId(request.query.id);
      if (!webcam) return reply.code(404).send(errorBody(404, `No camera with id ${request.query.id}`));
      return presentCamera(webcam, request.principal);
    },
  );

  app.get(
    '/api/Webcam/GetImageHistory',
    {
      schema: {
        summary: "A camera's images of one day (oldest first) and the days that have images (newest first)",
        querystring: Type.Object({
          name: Type.String({ maxLength: 64 }),
          day: Type.Optional(Day()),
        }),
        response: {
          200: Type.Object({
            camera: Type.String(),
            day: Type.String(),
            days: Type.Array(Type.String()),
            images: Type.Array(ImageSchema),
            frozenSince: Type.Union([Type.String(), Type.Null()], {
              description:
                "When the day's newest picture has the same bytes as the one before: the first picture of that run (yyyyMMddHHmm), the camera's picture unchanged since; else null",
            }),
          }),
          400: ErrorSchema,
          404: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const [webcam] = await webcams.cameras({ name: request.query.name });
      if (!webcam) return reply.code(404).send(errorBody(404, `Unknown camera ${request.query.name}`));
      const day = dayKey(request.query.day);
      const { images, days, frozenSince } = await webcams.imageHistory(webcam.id, day);
      return { camera: webcam.name, day: isoDay(day), days: days.map(isoDay), images, frozenSince };
    },
  );
};

export default webcamRoutes;
