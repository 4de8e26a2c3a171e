import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ADMIN_ROLE, ErrorSchema } from '@lakecams/service-kit';
import { Type } from 'typebox';
import type { ImagingComposition } from '../../../composition.ts';

const TimelapseJob = Type.Object({
  camera: Type.String(),
  day: Type.String({ description: 'yyyyMMdd' }),
  level: Type.String(),
  status: Type.String(),
  progress: Type.Integer({ minimum: 0, maximum: 100, description: 'percent of the frames encoded' }),
  frames: Type.Integer(),
  startedAt: Type.String({ format: 'date-time' }),
  durationMs: Type.Union([Type.Integer(), Type.Null()]),
  bytes: Type.Union([Type.Integer(), Type.Null()]),
  claimedBy: Type.String(),
  error: Type.Union([Type.String(), Type.Null()]),
});

/** The job dashboard's time-lapse section: the latest clips made, running ones with their progress (Admin). */
const timelapseDashboardRoutes: FastifyPluginAsyncTypebox<Pick<ImagingComposition, 'timelapseRepository'>> = async (
  app,
  { timelapseRepository },
) => {
  app.get(
    '/api/Jobs/timelapses',
    {
      config: { acceptsAccessCookie: true },
      onRequest: app.requireRole(ADMIN_ROLE),
      schema: {
        summary: 'The latest time-lapse jobs with their progress (Admin)',
        response: { 200: Type.Array(TimelapseJob), 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (_request, reply) => {
      const jobs = await timelapseRepository.recent(30);
      return reply.header('cache-control', 'no-store').send(
        jobs.map(({ framesDone, frames, startedAt, finishedAt: _, ...job }) => ({
          ...job,
          frames,
          progress: frames ? Math.min(100, Math.round((framesDone / frames) * 100)) : 0,
          startedAt: startedAt.toISOString(),
        })),
      );
    },
  );
};

export default timelapseDashboardRoutes;
