import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ADMIN_ROLE,
  booleanTextResponse,
  ErrorSchema,
  errorBody,
  Id,
  mediaResponse,
  replyTrue,
} from '@lakecams/service-kit';
import { Cron } from 'croner';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { captureTick } from '../../../capture.ts';
import { offlineReason } from '../../../camera-health.ts';
import type { Database } from '../../../database.ts';
import { cronPatternFor } from '../../../scheduler.ts';
import { DASHBOARD_HTML } from './dashboard-page.ts';

const WebcamIdQuery = Type.Object({ webcamId: Id() });
// The page authenticates with the access cookie, as a frame sends no bearer header; changes also need the
// gateway's anti-forgery header.
const cookieAuth = { acceptsAccessCookie: true } as const;

/** The job dashboard: schedules, last runs, failures, pruning; retry now, pause and resume (Admin). */
const jobRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db as Kysely<Database>;
  const admin = app.requireRole(ADMIN_ROLE);

  app.get(
    '/api/Jobs/dashboard',
    {
      config: cookieAuth,
      onRequest: admin,
      schema: {
        summary: 'The job dashboard page (Admin)',
        response: { 200: mediaResponse('The page', ['text/html'], { type: 'string' }) },
      },
    },
    async (_request, reply) =>
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(DASHBOARD_HTML),
  );

  app.get(
    '/api/Jobs/state',
    { config: cookieAuth, onRequest: admin, schema: { summary: 'What the job dashboard shows (Admin)' } },
    async (_request, reply) => {
      const cameras = await app.cameraDirectory.list();
      const lastRuns = await db
        .selectFrom('captures')
        .select(['webcamId', 'name', 'status', 'startedAt', 'durationMs', 'error', 'attempt', 'claimedBy'])
        .distinctOn('webcamId')
        .orderBy('webcamId')
        .orderBy('name', 'desc')
        .execute();
      const last = new Map(lastRuns.map((run) => [run.webcamId, run]));
      const failures = await db
        .selectFrom('captures')
        .innerJoin('cameras', 'cameras.webcamId', 'captures.webcamId')
        .select([
          'cameras.name as camera',
          'captures.name as tick',
          'captures.startedAt',
          'captures.error',
          'captures.attempt',
        ])
        .where('captures.status', '=', 'failed')
        .orderBy('captures.startedAt', 'desc')
        .limit(20)
        .execute();
      const prunes = await db
        .selectFrom('jobRuns')
        .select(['tick', 'status', 'startedAt', 'durationMs', 'error', 'detail'])
        .where('job', '=', 'prune')
        .orderBy('startedAt', 'desc')
        .limit(5)
        .execute();
      return reply.header('cache-control', 'no-store').send({
        generatedAt: new Date().toISOString(),
        replica: app.captureContext.replicaId,
        cameras: await Promise.all(
          cameras.map(async (camera) => ({
            webcamId: camera.webcamId,
            name: camera.name,
            intervalMin: camera.intervalMin,
            paused: camera.paused,
            offline: await offlineReason(db, camera),
            nextRun: new Cron(cronPatternFor(camera.intervalMin), { paused: true }).nextRun()?.toISOString() ?? null,
            lastRun: last.get(camera.webcamId) ?? null,
          })),
        ),
        failures,
        prunes,
      });
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
      },
    },
    async (request, reply) => {
      const camera = await app.cameraDirectory.byId(request.query.webcamId);
      if (!camera) return reply.code(404).send(errorBody(404, `Unknown camera ${request.query.webcamId}`));
      const tick = new Date();
      tick.setSeconds(0, 0);
      // A failed attempt of this minute is replaced by the next attempt.
      const failed = await db
        .deleteFrom('captures')
        .where('webcamId', '=', camera.webcamId)
        .where('status', '=', 'failed')
        .where('startedAt', '>=', tick)
        .returning('attempt')
        .executeTakeFirst();
      const result = await captureTick(app.captureContext, camera, tick, (failed?.attempt ?? 0) + 1);
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
          response: { ...booleanTextResponse, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
        },
      },
      async (request, reply) => {
        const updated = await db
          .updateTable('cameras')
          .set({ paused })
          .where('webcamId', '=', request.query.webcamId)
          .executeTakeFirst();
        if (!updated.numUpdatedRows)
          return reply.code(404).send(errorBody(404, `Unknown camera ${request.query.webcamId}`));
        return replyTrue(reply);
      },
    );
  }
};

export default jobRoutes;
