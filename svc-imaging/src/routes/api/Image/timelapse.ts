import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isValidCameraName } from '@lakecams/contracts';
import { ErrorSchema, errorBody, mediaResponse, replyNotModified } from '@lakecams/service-kit';
import { Type } from 'typebox';
import type { ImagingComposition } from '../../../composition.ts';
import { EmbedPass } from '../../../schemas.ts';
import { otherSpelling } from '../../../delivery/canonical-address.ts';
import { callerQuality } from '../../../delivery/caller-quality.ts';
import { embedPassPage } from '../../../delivery/embed-pass.ts';
import { byteRangeOf, clipDayOf } from '../../../delivery/timelapse-request.ts';
import { dayOf, isDayFinished, timelapseLevelFor } from '../../../archive/timelapse-maker.ts';

/** A day's time-lapse clip (H.264 MP4) at the caller's quality, at most MEDIUM (1280 px). */
const timelapseRoutes: FastifyPluginAsyncTypebox<
  Pick<ImagingComposition, 'linkSecret' | 'deliveryStates' | 'timelapses'>
> = async (app, { linkSecret, deliveryStates, timelapses }) => {
  app.get(
    '/api/Image/Timelapse/camera/:camera/:file',
    {
      config: { acceptsAccessCookie: true },
      schema: {
        summary: "A camera's day as a time-lapse clip (yyyy-MM-dd.mp4) at the caller's quality, up to 1280 px wide",
        params: Type.Object({ camera: Type.String({ maxLength: 64 }), file: Type.String({ maxLength: 20 }) }),
        querystring: Type.Object({
          pass: EmbedPass,
        }),
        response: {
          200: mediaResponse('The clip', ['video/mp4']),
          206: mediaResponse('The part of the clip a Range asked for', ['video/mp4']),
          409: ErrorSchema,
          304: Type.Null(),
          400: ErrorSchema,
          404: ErrorSchema,
          416: ErrorSchema,
          503: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { camera: cameraName, file } = request.params;
      const now = new Date();
      if (!isValidCameraName(cameraName)) return reply.code(400).send(errorBody(400, 'Not a valid camera name'));
      const parsed = clipDayOf(file, dayOf(now));
      if ('problem' in parsed) return reply.code(400).send(errorBody(400, parsed.problem));
      const { pass } = request.query;
      const canonical = `/api/Image/Timelapse/camera/${cameraName}/${file}`;
      const spelling = otherSpelling(request.url, pass === undefined ? canonical : `${canonical}?pass=${pass}`);
      if (spelling) return reply.code(spelling.status).send(errorBody(spelling.status, spelling.message));
      const state = await deliveryStates.of(cameraName);
      if (!state) return reply.code(404).send(errorBody(404, `Unknown camera ${cameraName}`));
      const page = embedPassPage(linkSecret, pass);
      const { quality, personal } = callerQuality(request, state.access, page);
      const level = timelapseLevelFor(quality);
      const clip = await timelapses.clip(state.camera, parsed.day, level);
      if (clip.status === 'no pictures')
        return reply.code(404).send(errorBody(404, `No pictures of ${cameraName} on ${file.slice(0, 10)}`));
      if (clip.status !== 'ready')
        return reply.code(503).send(errorBody(503, 'The time-lapse cannot be made right now, please retry'));
      const { bytes, row } = clip;
      // A finished day's clip never changes; today's is made again every few minutes.
      const lifetime = isDayFinished(parsed.day, now) && row.complete ? 'max-age=86400' : 'max-age=60';
      reply.header('cache-control', `${personal ? 'private' : 'public'}, ${lifetime}`);
      reply.header('vary', 'Authorization, Cookie, Referer');
      reply.header('x-image-quality', level);
      const etag = `"${state.camera.webcamId}-${parsed.day}-${level}-${row.finishedAt?.getTime() ?? 0}"`;
      if (replyNotModified(request, reply, etag)) return reply;
      reply.header('accept-ranges', 'bytes');
      reply.header('content-disposition', `inline; filename="${cameraName}-${file.slice(0, 10)}.mp4"`);
      reply.type('video/mp4');
      const range = byteRangeOf(request.headers.range, bytes.length);
      if (range === 'unsatisfiable') {
        reply.header('content-range', `bytes */${bytes.length}`);
        return reply.code(416).type('application/json').send(errorBody(416, 'The range lies beyond the clip'));
      }
      if (!range) return reply.send(bytes);
      reply.header('content-range', `bytes ${range.start}-${range.end}/${bytes.length}`);
      return reply.code(206).send(bytes.subarray(range.start, range.end + 1));
    },
  );
};

export default timelapseRoutes;
