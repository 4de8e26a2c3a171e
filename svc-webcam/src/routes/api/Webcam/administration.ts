import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CAMERA_RULES, QUALITIES, type Quality } from '@lakecams/contracts';
import {
  ADMIN_ROLE,
  booleanTextResponse,
  DayOrInstant,
  errorBody,
  Id,
  IdOrNew,
  replyTrue,
  unavailable,
  validateWith,
} from '@lakecams/service-kit';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { presentCamera, seesCameraSource } from '../../../camera-presentation.ts';
import { ErrorSchema, WebcamSchema } from '../../../schemas.ts';
import type { WebcamComposition } from '../../../composition.ts';

const Uuid = Type.String({ format: 'uuid' });
const QualitySchema = Type.Enum([...QUALITIES]);
const UserRefSchema = Type.Object({ id: Uuid, userName: Type.String(), email: Type.String() });
const BookingSchema = Type.Object({
  id: Type.Integer(),
  start: Type.String(),
  end: Type.String(),
  webcamId: Type.Integer(),
  quality: QualitySchema,
  refererUserId: Type.Union([Type.Integer(), Type.Null()]),
  refererUserText: Type.Union([Type.String(), Type.Null()]),
});
const ConfigurationSchema = Type.Object({
  id: Type.Integer(),
  user: Type.Union([UserRefSchema, Type.Null()]),
  quality: QualitySchema,
  webcam: Type.Object({ id: Type.Integer(), name: Type.String() }),
});
const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema };
const WebcamIdQuery = Type.Object({ webcamId: Id() });

/** `2026-11-22T13:45:00Z` or `2026-11-22` → `2026-11-22` (bookings are whole days). */
const dayOf = (value: string) => value.slice(0, 10);

/** The Webcam calls that change or reveal administration data; Admin-only unless noted. */
const webcamAdministrationRoutes: FastifyPluginAsyncTypebox<
  Pick<WebcamComposition, 'webcams' | 'access' | 'knownUsers' | 'messaging'>
> = async (app, { webcams, access, knownUsers, messaging }) => {
  const admin = app.requireRole(ADMIN_ROLE);
  const unknownCamera = (reply: FastifyReply, id: number) =>
    reply.code(404).send(errorBody(404, `No camera with id ${id}`));
  const cameraExists = async (id: number) => (await webcams.byId(id)) !== undefined;
  /** The first of these users svc-identity never announced, if any: nothing is stored for nobody. */
  const firstUnknownUser = (userIds: string[]) => knownUsers.firstUnknownUser(userIds);
  const unknownUser = (reply: FastifyReply, id: string) => reply.code(404).send(errorBody(404, `No such user ${id}`));

  app.post(
    '/api/Webcam/Set',
    {
      onRequest: admin,
      preValidation: validateWith(CAMERA_RULES, 'body'),
      schema: {
        summary: 'Create a camera (no id) or change one (Admin)',
        body: Type.Object({
          id: Type.Optional(IdOrNew()),
          name: Type.String({ maxLength: 64 }),
          pattern: Type.String({ maxLength: 2000 }),
          distance: Type.Number({ minimum: 1, maximum: 20 }),
          angle: Type.Integer({ minimum: 1, maximum: 360 }),
          intervalMin: Type.Integer({ minimum: 1, maximum: 60 }),
          webcamType: Type.Optional(Type.Enum(['STATIC', 'MOBILE', 'ROTATION'])),
        }),
        response: { ...booleanTextResponse, ...errors, 409: ErrorSchema },
      },
    },
    async (request, reply) => {
      const { id, webcamType = 'STATIC', ...camera } = request.body;
      if (await webcams.nameTaken(camera.name, id || undefined)) {
        return reply.code(409).send(errorBody(409, `A camera named ${camera.name} exists already`));
      }
      const saved = await webcams.save({ ...camera, webcamType, id: id || undefined });
      if (!saved) return unknownCamera(reply, id as number);
      await messaging.cameraListChanged();
      return replyTrue(reply);
    },
  );

  app.delete(
    '/api/Webcam/Delete',
    {
      onRequest: admin,
      schema: {
        summary: 'Remove a camera with its images, permissions, configurations and bookings (Admin)',
        body: Type.Object({ id: Id() }, { additionalProperties: true }),
        response: { ...booleanTextResponse, ...errors },
      },
    },
    async (request, reply) => {
      const removed = await webcams.remove(request.body.id);
      if (!removed) return unknownCamera(reply, request.body.id);
      await messaging.cameraListChanged();
      return replyTrue(reply);
    },
  );

  app.get(
    '/api/Webcam/GetUsers/users',
    {
      onRequest: admin,
      schema: {
        summary: 'Users with access to a camera (Admin)',
        querystring: WebcamIdQuery,
        response: { 200: Type.Array(UserRefSchema), ...errors },
      },
    },
    async (request, reply) =>
      (await cameraExists(request.query.webcamId))
        ? access.permittedUsers(request.query.webcamId)
        : unknownCamera(reply, request.query.webcamId),
  );

  app.post(
    '/api/Webcam/SetUsers/users',
    {
      onRequest: admin,
      schema: {
        summary: 'Replace the users with access to a camera (Admin)',
        querystring: WebcamIdQuery,
        body: Type.Array(Type.Union([Uuid, Type.Object({ id: Uuid }, { additionalProperties: true })]), {
          maxItems: 10_000,
        }),
        response: { ...booleanTextResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { webcamId } = request.query;
      if (!(await cameraExists(webcamId))) return unknownCamera(reply, webcamId);
      const userIds = request.body.map((user) => (typeof user === 'string' ? user : user.id).toLowerCase());
      const unknown = await firstUnknownUser(userIds);
      if (unknown) return unknownUser(reply, unknown);
      await access.setPermittedUsers(webcamId, userIds);
      return replyTrue(reply);
    },
  );

  app.get(
    '/api/Webcam/GetConfiguration/configuration',
    {
      onRequest: admin,
      schema: {
        summary: 'Quality configurations of a camera (Admin)',
        querystring: WebcamIdQuery,
        response: { 200: Type.Array(ConfigurationSchema), ...errors },
      },
    },
    async (request, reply) =>
      (await cameraExists(request.query.webcamId))
        ? access.configurations(request.query.webcamId)
        : unknownCamera(reply, request.query.webcamId),
  );

  app.post(
    '/api/Webcam/SetConfiguration/configuration',
    {
      onRequest: admin,
      schema: {
        summary: 'Set the quality of a camera for a user, or (no userId) for all other users (Admin)',
        querystring: Type.Object({
          webcamId: Id(),
          userId: Type.Optional(Type.Union([Uuid, Type.Literal('')])),
          quality: QualitySchema,
        }),
        response: { ...booleanTextResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { webcamId, quality } = request.query;
      const userId = request.query.userId ? request.query.userId.toLowerCase() : null;
      if (!(await cameraExists(webcamId))) return unknownCamera(reply, webcamId);
      const unknown = userId && (await firstUnknownUser([userId]));
      if (unknown) return unknownUser(reply, unknown);
      await access.setConfiguration(webcamId, userId, quality as Quality);
      return replyTrue(reply);
    },
  );

  app.delete(
    '/api/Webcam/RemoveConfiguration/configuration',
    {
      onRequest: admin,
      schema: {
        summary: 'Remove a quality configuration (Admin)',
        querystring: Type.Object({ configurationId: Id() }),
        response: { ...booleanTextResponse, ...errors },
      },
    },
    async (request, reply) => {
      const webcamId = await access.removeConfiguration(request.query.configurationId);
      if (!webcamId) return reply.code(404).send(errorBody(404, 'Configuration not found'));
      return replyTrue(reply);
    },
  );

  app.get(
    '/api/Webcam/GetReferers/referers',
    {
      onRequest: admin,
      schema: {
        summary: 'Referer bookings of a camera (Admin)',
        querystring: WebcamIdQuery,
        response: { 200: Type.Array(BookingSchema), ...errors },
      },
    },
    async (request, reply) =>
      (await cameraExists(request.query.webcamId))
        ? access.bookings(request.query.webcamId)
        : unknownCamera(reply, request.query.webcamId),
  );

  app.put(
    '/api/Webcam/SetReferer/referer',
    {
      onRequest: admin,
      schema: {
        summary: 'Save a referer booking (whole days); returns the saved booking (Admin)',
        querystring: WebcamIdQuery,
        body: Type.Object(
          {
            id: Type.Optional(IdOrNew()),
            start: DayOrInstant(),
            end: DayOrInstant(),
            quality: QualitySchema,
            refererUserId: Type.Optional(Type.Union([Id(), Type.Null()])),
            refererUserText: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
          },
          { additionalProperties: true },
        ),
        response: { 200: BookingSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { webcamId } = request.query;
      if (!(await cameraExists(webcamId))) return unknownCamera(reply, webcamId);
      const { id, start, end, quality, refererUserId = null } = request.body;
      if (dayOf(start) > dayOf(end))
        return reply.code(400).send(errorBody(400, 'The booking must not end before it starts'));
      let url: string | null = null;
      let refererUserText = request.body.refererUserText ?? null;
      if (refererUserId) {
        const referer = await messaging.refererUsers
          .lookup(refererUserId)
          .catch(unavailable('Referer users cannot be read right now, please retry'));
        if (!referer) return reply.code(400).send(errorBody(400, `Unknown referer user ${refererUserId}`));
        url = referer.url;
        refererUserText = `${referer.userEmail} – ${referer.url}`;
      }
      const saved = await access.saveBooking({
        id: id || undefined,
        webcamId,
        start: dayOf(start),
        end: dayOf(end),
        quality: quality as Quality,
        refererUserId,
        refererUserText,
        url,
      });
      if (!saved) return reply.code(404).send(errorBody(404, `No booking ${id} on camera ${webcamId}`));
      return saved;
    },
  );

  app.delete(
    '/api/Webcam/RemoveReferer/referer',
    {
      onRequest: admin,
      schema: {
        summary: 'Remove a referer booking (Admin)',
        querystring: Type.Object({ webcamId: Id(), refererId: Id() }),
        response: { ...booleanTextResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { webcamId, refererId } = request.query;
      if (!(await access.removeBooking(webcamId, refererId))) {
        return reply.code(404).send(errorBody(404, `No booking ${refererId} on camera ${webcamId}`));
      }
      return replyTrue(reply);
    },
  );

  app.get(
    '/api/Webcam/GetReferersofUser/referersOfUSer',
    {
      onRequest: app.requireUser,
      schema: {
        summary: 'The cameras the acting user may configure for their pages, by id (Admin: all)',
        response: { 200: Type.Record(Type.String(), WebcamSchema), ...errors },
      },
    },
    async (request) => {
      const principal = request.principal;
      const cameras = await webcams.cameras();
      const permitted = seesCameraSource(principal)
        ? null
        : new Set(await access.permittedCameraIds(principal?.actingUserId as string));
      return Object.fromEntries(
        cameras
          .filter((c) => !permitted || permitted.has(c.id))
          .map((c) => [String(c.id), presentCamera(c, principal)]),
      );
    },
  );
};

export default webcamAdministrationRoutes;
