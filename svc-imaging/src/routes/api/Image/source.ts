import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CAMERA_LOGIN_RULES, CAMERA_SOURCE_KINDS, HTTP_URL_PATTERN, STREAM_TRANSPORTS } from '@lakecams/contracts';
import { ADMIN_ROLE, ErrorSchema, errorBody, Id, validateWith } from '@lakecams/service-kit';
import { Type } from 'typebox';
import type { ImagingComposition } from '../../../composition.ts';
import { WebcamIdQuery } from '../../../schemas.ts';
import { DEFAULT_FETCH_LIMITS, fetchCameraImage } from '../../../capture/camera-fetch.ts';
import { testConnection } from '../../../capture/connection-test.ts';
import { grabStreamFrame } from '../../../capture/stream-frame.ts';
import { NoSecretKeyError } from '../../../repositories/camera-source-repository.ts';

const refusals = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema } as const;
const Kind = Type.Union([Type.Literal('http'), Type.Literal('stream'), Type.Literal('ftp'), Type.Literal('push')], {
  description: `One of ${CAMERA_SOURCE_KINDS.join(', ')}: fetched by URL or from a stream, or pushed by FTP or HTTP`,
});
const Transport = Type.Union([Type.Literal('tcp'), Type.Literal('udp')], {
  description: `RTSP transport: ${STREAM_TRANSPORTS.join(' or ')}`,
});
const Login = {
  username: Type.Optional(Type.String({ maxLength: 200, description: "The camera's login name" })),
  password: Type.Optional(
    Type.String({ maxLength: 200, description: 'Empty removes the stored password; left out keeps it' }),
  ),
};

const CameraSourceSchema = Type.Object({
  webcamId: Type.Integer(),
  kind: Kind,
  username: Type.String(),
  passwordSet: Type.Boolean({ description: 'The password itself is never sent back' }),
  transport: Transport,
  ftp: Type.Object({
    user: Type.String(),
    host: Type.Union([Type.String(), Type.Null()], { description: "null: the portal's own host name" }),
    port: Type.Integer(),
    tls: Type.Boolean(),
    passwordSet: Type.Boolean(),
  }),
  push: Type.Object({ path: Type.String(), secretSet: Type.Boolean() }),
  lastUpload: Type.Union([
    Type.Object({
      name: Type.String(),
      at: Type.String({ format: 'date-time' }),
      via: Type.Union([Type.Literal('ftp'), Type.Literal('push')]),
    }),
    Type.Null(),
  ]),
});

/** A stream's URL or a picture's: what "Verbindung testen" and a fetched source take. */
const SOURCE_URL_PATTERN = '^(https?|rtsps?)://[^\\s/$.?#][^\\s]*$';

/** How a camera's pictures arrive, its login and push accounts, and "Verbindung testen" (Admin). */
const sourceRoutes: FastifyPluginAsyncTypebox<Pick<ImagingComposition, 'cameraDirectory' | 'cameraSources'>> = async (
  app,
  { cameraDirectory, cameraSources },
) => {
  const admin = app.requireRole(ADMIN_ROLE);
  const cameraOr404 = async (webcamId: number) => cameraDirectory.byId(webcamId);

  app.get(
    '/api/Image/Source',
    {
      onRequest: admin,
      schema: {
        summary: "How a camera's pictures arrive: kind, login (without its password), push accounts (Admin)",
        querystring: WebcamIdQuery,
        response: { 200: CameraSourceSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const camera = await cameraOr404(request.query.webcamId);
      if (!camera) return reply.code(404).send(errorBody(404, `Unknown camera ${request.query.webcamId}`));
      return cameraSources.view(await cameraSources.of(camera.webcamId), camera);
    },
  );

  app.put(
    '/api/Image/Source',
    {
      onRequest: admin,
      preValidation: validateWith(CAMERA_LOGIN_RULES, 'body'),
      schema: {
        summary: "Set how a camera's pictures arrive and its login; the password is kept sealed (Admin)",
        querystring: WebcamIdQuery,
        body: Type.Object(
          { kind: Kind, transport: Type.Optional(Transport), ...Login },
          { additionalProperties: false },
        ),
        response: { 200: CameraSourceSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const camera = await cameraOr404(request.query.webcamId);
      if (!camera) return reply.code(404).send(errorBody(404, `Unknown camera ${request.query.webcamId}`));
      try {
        const row = await cameraSources.update(camera.webcamId, request.body);
        return cameraSources.view(row, camera);
      } catch (error) {
        if (error instanceof NoSecretKeyError) return reply.code(400).send(errorBody(400, error.message));
        throw error;
      }
    },
  );

  app.post(
    '/api/Image/Source/FtpPassword',
    {
      onRequest: admin,
      schema: {
        summary: "A new password for the camera's FTP account, shown this once; the old one stops working (Admin)",
        querystring: WebcamIdQuery,
        response: { 200: Type.Object({ user: Type.String(), password: Type.String() }), ...refusals },
      },
    },
    async (request, reply) => {
      const camera = await cameraOr404(request.query.webcamId);
      if (!camera) return reply.code(404).send(errorBody(404, `Unknown camera ${request.query.webcamId}`));
      reply.header('cache-control', 'no-store');
      return cameraSources.rotateFtpPassword(camera.webcamId, camera.name);
    },
  );

  app.post(
    '/api/Image/Source/PushSecret',
    {
      onRequest: admin,
      schema: {
        summary: "A new secret for the camera's HTTP uploads, shown this once; the old one stops working (Admin)",
        querystring: WebcamIdQuery,
        response: { 200: Type.Object({ path: Type.String(), secret: Type.String() }), ...refusals },
      },
    },
    async (request, reply) => {
      const camera = await cameraOr404(request.query.webcamId);
      if (!camera) return reply.code(404).send(errorBody(404, `Unknown camera ${request.query.webcamId}`));
      reply.header('cache-control', 'no-store');
      const secret = await cameraSources.rotatePushSecret(camera.webcamId);
      return { path: cameraSources.view(await cameraSources.of(camera.webcamId), camera).push.path, secret };
    },
  );

  app.post(
    '/api/Image/Source/Test',
    {
      onRequest: admin,
      preValidation: validateWith(CAMERA_LOGIN_RULES, 'body'),
      schema: {
        summary: 'Fetch one picture now with the settings given: its size and time, or why it failed (Admin)',
        querystring: Type.Object({ webcamId: Type.Optional(Id()) }),
        body: Type.Object(
          {
            kind: Type.Union([Type.Literal('http'), Type.Literal('stream')]),
            url: Type.String({ maxLength: 2000, pattern: SOURCE_URL_PATTERN }),
            transport: Type.Optional(Transport),
            ...Login,
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Union([
            Type.Object({
              ok: Type.Literal(true),
              width: Type.Integer(),
              height: Type.Integer(),
              bytes: Type.Integer(),
              ms: Type.Integer(),
              preview: Type.String({ description: 'A small JPEG as a data: URL' }),
            }),
            Type.Object({ ok: Type.Literal(false), ms: Type.Integer(), reason: Type.String(), message: Type.String() }),
          ]),
          ...refusals,
        },
      },
    },
    async (request, reply) => {
      const { url, username, password, kind } = request.body;
      // A password left out is the stored one, so the admin can test without typing it again.
      let login = username ? { username, password: password ?? '' } : undefined;
      if (username && password === undefined && request.query.webcamId !== undefined) {
        const row = await cameraSources.of(request.query.webcamId);
        let stored: ReturnType<typeof cameraSources.login>;
        try {
          stored = cameraSources.login(row);
        } catch (error) {
          if (error instanceof NoSecretKeyError) return reply.code(400).send(errorBody(400, error.message));
          throw error;
        }
        if (stored?.username === username) login = stored;
      }
      const limits = { ...DEFAULT_FETCH_LIMITS, retries: 0 };
      if (kind === 'stream' || !new RegExp(HTTP_URL_PATTERN).test(url))
        return testConnection(() =>
          grabStreamFrame(url, { ...limits, transport: request.body.transport ?? 'tcp', login }),
        );
      return testConnection(() => fetchCameraImage(url, new Date(), limits, login));
    },
  );
};

export default sourceRoutes;
