import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CAMERA_NAME_PATTERN, IMAGE_NAME_PATTERN, imageNameOf } from '@lakecams/contracts';
import { ADMIN_ROLE, Day, errorBody } from '@lakecams/service-kit';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { ErrorSchema } from '../../../schemas.ts';
import type { WebcamComposition } from '../../../composition.ts';

const CameraName = Type.String({ pattern: CAMERA_NAME_PATTERN, maxLength: 64 });
const Month = Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', maxLength: 7 });
const BestOfSchema = Type.Object({
  name: Type.String({ pattern: IMAGE_NAME_PATTERN }),
  score: Type.Union([Type.Number(), Type.Null()]),
  chosenBy: Type.Enum(['score', 'admin']),
});
const CameraBestOfSchema = Type.Object({
  camera: Type.String(),
  webcamId: Type.Integer(),
  ...BestOfSchema.properties,
});
const CameraDay = Type.Object({ name: CameraName, day: Day() });
const errors = { 400: ErrorSchema, 404: ErrorSchema };
const adminErrors = { ...errors, 401: ErrorSchema, 403: ErrorSchema };

/** `2026-11-22` → `20261122`, and back. */
const dayKey = (day: string) => day.replaceAll('-', '');
const isoDay = (key: string) => `${key.slice(0, 4)}-${key.slice(4, 6)}-${key.slice(6, 8)}`;
const today = () => isoDay(imageNameOf(new Date()).slice(0, 8));

/** Best of day (chosen by score or by an admin) and the calendar of days with pictures. */
const bestOfRoutes: FastifyPluginAsyncTypebox<Pick<WebcamComposition, 'webcams' | 'bestOf'>> = async (
  app,
  { webcams, bestOf },
) => {
  const admin = app.requireRole(ADMIN_ROLE);
  const cameraNamed = async (name: string) => (await webcams.cameras({ name }))[0];
  const unknownCamera = (reply: FastifyReply, name: string) =>
    reply.code(404).send(errorBody(404, `Unknown camera ${name}`));
  const noPictures = (reply: FastifyReply, name: string, day: string) =>
    reply.code(404).send(errorBody(404, `Camera ${name} has no pictures on ${day}`));

  app.get(
    '/api/Webcam/GetBestOf',
    {
      schema: {
        summary: "A camera's best picture of a day",
        querystring: CameraDay,
        response: { 200: BestOfSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { name, day } = request.query;
      const webcam = await cameraNamed(name);
      if (!webcam) return unknownCamera(reply, name);
      const best = await bestOf.bestOf(webcam.id, dayKey(day));
      return best ?? noPictures(reply, name, day);
    },
  );

  app.get(
    '/api/Webcam/GetBestOfDay',
    {
      schema: {
        summary: 'The best picture of every camera with pictures on a day (today when absent)',
        querystring: Type.Object({ day: Type.Optional(Day()) }),
        response: {
          200: Type.Object({ day: Type.String(), today: Type.String(), pictures: Type.Array(CameraBestOfSchema) }),
          400: ErrorSchema,
        },
      },
    },
    async (request) => {
      const day = request.query.day ?? today();
      return { day, today: today(), pictures: await bestOf.bestOfDay(dayKey(day)) };
    },
  );

  app.put(
    '/api/Webcam/SetBestOf',
    {
      onRequest: admin,
      schema: {
        summary: "Choose a camera's best picture of a day instead of the score (Admin)",
        querystring: Type.Object({
          ...CameraDay.properties,
          image: Type.String({ pattern: IMAGE_NAME_PATTERN, maxLength: 12 }),
        }),
        response: { 200: BestOfSchema, ...adminErrors },
      },
    },
    async (request, reply) => {
      const { name, day, image } = request.query;
      const webcam = await cameraNamed(name);
      if (!webcam) return unknownCamera(reply, name);
      if (image.slice(0, 8) !== dayKey(day)) {
        return reply.code(400).send(errorBody(400, `Picture ${image} was not taken on ${day}`));
      }
      if (!(await bestOf.hasImage(webcam.id, image))) {
        return reply.code(404).send(errorBody(404, `Camera ${name} has no picture ${image}`));
      }
      await bestOf.choose(webcam.id, dayKey(day), image);
      return (await bestOf.bestOf(webcam.id, dayKey(day))) ?? noPictures(reply, name, day);
    },
  );

  app.delete(
    '/api/Webcam/SetBestOf',
    {
      onRequest: admin,
      schema: {
        summary: "Let the score choose a camera's best picture of a day again (Admin)",
        querystring: CameraDay,
        response: { 200: BestOfSchema, ...adminErrors },
      },
    },
    async (request, reply) => {
      const { name, day } = request.query;
      const webcam = await cameraNamed(name);
      if (!webcam) return unknownCamera(reply, name);
      await bestOf.choose(webcam.id, dayKey(day), null);
      return (await bestOf.bestOf(webcam.id, dayKey(day))) ?? noPictures(reply, name, day);
    },
  );

  app.get(
    '/api/Webcam/GetImageDays',
    {
      schema: {
        summary: "The days of a month with pictures of a camera, and the camera's first and last day",
        querystring: Type.Object({ name: CameraName, month: Month }),
        response: {
          200: Type.Object({
            camera: Type.String(),
            month: Type.String(),
            days: Type.Array(Type.String()),
            first: Type.Union([Type.String(), Type.Null()]),
            last: Type.Union([Type.String(), Type.Null()]),
          }),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { name, month } = request.query;
      const webcam = await cameraNamed(name);
      if (!webcam) return unknownCamera(reply, name);
      const found = await webcams.imageDays(webcam.id, month.replace('-', ''));
      return {
        camera: webcam.name,
        month,
        days: found.days.map(isoDay),
        first: found.first ? isoDay(found.first) : null,
        last: found.last ? isoDay(found.last) : null,
      };
    },
  );
};

export default bestOfRoutes;
