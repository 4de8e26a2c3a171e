import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ADMIN_ROLE,
  booleanTextResponse,
  ErrorSchema,
  errorBody,
  mediaResponse,
  replyTrue,
} from '@lakecams/service-kit';
import { Cron } from 'croner';
import { type TSchema, Type } from 'typebox';
import type { ImagingComposition } from '../../../composition.ts';
import { WebcamIdQuery } from '../../../schemas.ts';
import { captureTick, nowOf } from '../../../capture/capture-tick.ts';
import { cronPatternFor } from '../../../capture/scheduler.ts';
import type { Health } from '../../../health/health-state.ts';
import { DASHBOARD_FRAME, DASHBOARD_FRAME_SCRIPT, DASHBOARD_FRAME_SCRIPT_PATH } from './dashboard-frame.ts';

// The dashboard's frame authenticates with the access cookie, as a frame sends no bearer header; changes also
// need the gateway's anti-forgery header.
const cookieAuth = { acceptsAccessCookie: true } as const;
const refusals = { 401: ErrorSchema, 403: ErrorSchema } as const;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Time = Type.String({ format: 'date-time' });
const CaptureStatus = Type.Union([Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]);

const LastRun = Type.Object({
  name: Type.String({ description: 'The tick, yyyyMMddHHmm' }),
  status: CaptureStatus,
  startedAt: Time,
  durationMs: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  attempt: Type.Integer(),
  claimedBy: Type.String({ description: 'The replica that captured it' }),
});

const HealthSchema = Type.Object(
  {
    state: Type.Union([Type.Literal('ok'), Type.Literal('late'), Type.Literal('failing'), Type.Literal('offline')]),
    since: Nullable(Time),
    reason: Nullable(Type.String({ description: "offline: 'frozen' or 'silent'; failing: the latest error" })),
  },
  {
    description:
      'late: no new picture for two intervals; offline: frozen or silent for three; failing: the last two attempts failed (fetched cameras only)',
  },
);
const healthBody = (health: Health) => ({
  ...health,
  since: health.since?.toISOString() ?? null,
});

const CameraHealthList = Type.Array(
  Type.Object({ webcamId: Type.Integer(), name: Type.String(), paused: Type.Boolean(), health: HealthSchema }),
);

const JobState = Type.Object({
  generatedAt: Time,
  replica: Type.String({ description: 'The replica that answered' }),
  cameras: Type.Array(
    Type.Object({
      webcamId: Type.Integer(),
      name: Type.String(),
      intervalMin: Type.Integer(),
      paused: Type.Boolean(),
      offline: Nullable(
        Type.Union([Type.Literal('frozen'), Type.Literal('silent')], {
          description: 'frozen: the last two pictures are equal; silent: none within three intervals',
        }),
      ),
      health: HealthSchema,
      nextRun: Nullable(Time),
      lastRun: Nullable(LastRun),
    }),
  ),
  failures: Type.Array(
    Type.Object({
      camera: Type.String(),
      tick: Type.String({ description: 'yyyyMMddHHmm' }),
      startedAt: Time,
      error: Nullable(Type.String()),
      attempt: Type.Integer(),
    }),
    { description: 'The last 20 failed captures, newest first' },
  ),
  prunes: Type.Array(
    Type.Object({
      tick: Type.String({ description: 'The day, yyyyMMdd' }),
      status: CaptureStatus,
      startedAt: Time,
      durationMs: Nullable(Type.Integer()),
      error: Nullable(Type.String()),
      detail: Type.Unknown({ description: 'What a finished run removed' }),
    }),
    { description: 'The last 5 pruning runs, newest first' },
  ),
});

const CaptureResult = Type.Union([
  Type.Object({
    outcome: Type.Literal('captured'),
    image: Type.Object({
      webcamId: Type.Integer(),
      name: Type.String(),
      lat: Type.Number(),
      lng: Type.Number(),
      direction: Type.Number(),
    }),
  }),
  Type.Object({ outcome: Type.Literal('failed'), error: Type.String() }),
]);

/** The job dashboard's data and actions: schedules, last runs, failures, pruning; retry now, pause, resume (Admin). */
const jobRoutes: FastifyPluginAsyncTypebox<
  Pick<ImagingComposition, 'cameraDirectory' | 'cameraHealth' | 'claims' | 'captures' | 'jobRuns' | 'capture'>
> = async (app, { cameraDirectory, cameraHealth, claims, captures, jobRuns, capture }) => {
  const admin = app.requireRole(ADMIN_ROLE);

  /** The dashboard's frame document and its loader script: files for the admin's browser, never cached. */
  const dashboardFile = (path: string, summary: string, mediaType: 'text/html' | 'text/javascript', body: string) =>
    app.get(
      path,
      {
        config: cookieAuth,
        onRequest: admin,
        schema: { summary, response: { 200: mediaResponse(summary, [mediaType], { type: 'string' }), ...refusals } },
      },
      async (_request, reply) =>
        reply.type(`${mediaType}; charset=utf-8`).header('cache-control', 'no-store').send(body),
    );
  dashboardFile(
    '/api/Jobs/dashboard',
    'The job dashboard as a page of its own, for a frame (Admin)',
    'text/html',
    DASHBOARD_FRAME,
  );
  dashboardFile(
    DASHBOARD_FRAME_SCRIPT_PATH,
    "The job dashboard frame's script (Admin)",
    'text/javascript',
    DASHBOARD_FRAME_SCRIPT,
  );

  app.get(
    '/api/Jobs/state',
    {
      config: cookieAuth,
      onRequest: admin,
      schema: { summary: 'What the job dashboard shows (Admin)', response: { 200: JobState, ...refusals } },
    },
    async (_request, reply) => {
      const [cameras, healths, lastRuns, failures, prunes] = await Promise.all([
        cameraDirectory.list(),
        cameraHealth.read(),
        captures.lastRuns(),
        captures.recentFailures(20),
        jobRuns.latest('prune', 5),
      ]);
      const healthOf = new Map(healths.map((camera) => [camera.webcamId, camera.health]));
      return reply.header('cache-control', 'no-store').send({
        generatedAt: new Date().toISOString(),
        replica: capture.context.replicaId,
        cameras: await Promise.all(
          cameras.map(async (camera) => {
            const lastRun = lastRuns.get(camera.webcamId);
            const health: Health = healthOf.get(camera.webcamId) ?? { state: 'ok', since: null, reason: null };
            return {
              webcamId: camera.webcamId,
              name: camera.name,
              intervalMin: camera.intervalMin,
              paused: camera.paused,
              offline: health.state === 'offline' ? (health.reason as 'frozen' | 'silent') : null,
              health: healthBody(health),
              nextRun: new Cron(cronPatternFor(camera.intervalMin), { paused: true }).nextRun()?.toISOString() ?? null,
              lastRun: lastRun ? { ...lastRun, startedAt: lastRun.startedAt.toISOString() } : null,
            };
          }),
        ),
        failures: failures.map((failure) => ({ ...failure, startedAt: failure.startedAt.toISOString() })),
        prunes: prunes.map((prune) => ({ ...prune, startedAt: prune.startedAt.toISOString() })),
      });
    },
  );

  app.get(
    '/api/Jobs/health',
    {
      onRequest: admin,
      schema: {
        summary: "Each camera's health: ok, late, failing or offline, since when (Admin)",
        response: { 200: CameraHealthList, ...refusals },
      },
    },
    async (_request, reply) => {
      const cameras = await cameraHealth.read();
      return reply
        .header('cache-control', 'no-store')
        .send(cameras.map((camera) => ({ ...camera, health: healthBody(camera.health) })));
    },
  );

  app.post(
    '/api/Jobs/retry',
    {
      config: cookieAuth,
      onRequest: admin,
      schema: {
        summary: 'Capture a camera now (Admin)',
        querystring: WebcamIdQuery,
        response: { 200: CaptureResult, ...refusals, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request, reply) => {
      const camera = await cameraDirectory.byId(request.query.webcamId);
      if (!camera) return reply.code(404).send(errorBody(404, `Unknown camera ${request.query.webcamId}`));
      const tick = new Date(nowOf(capture.context));
      tick.setSeconds(0, 0);
      // A failed attempt of this minute is replaced by the next attempt.
      const attempt = (await claims.dropFailedAttempt(camera.webcamId, tick)) + 1;
      const result = await captureTick(capture.context, camera, tick, attempt);
      if (result.outcome === 'skipped')
        return reply.code(409).send(errorBody(409, 'This camera was captured this minute already'));
      return result;
    },
  );

  for (const [action, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    app.post(
      `/api/Jobs/${action}`,
      {
        config: cookieAuth,
        onRequest: admin,
        schema: {
          summary: `${paused ? 'Pause' : 'Resume'} a camera's scheduled captures (Admin)`,
          querystring: WebcamIdQuery,
          response: { ...booleanTextResponse, ...refusals, 404: ErrorSchema },
        },
      },
      async (request, reply) => {
        if (!(await cameraDirectory.setPaused(request.query.webcamId, paused)))
          return reply.code(404).send(errorBody(404, `Unknown camera ${request.query.webcamId}`));
        return replyTrue(reply);
      },
    );
  }
};

export default jobRoutes;
