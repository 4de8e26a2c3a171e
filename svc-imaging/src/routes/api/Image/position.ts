import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { imageNameOf, POSITION_RULES } from '@lakecams/contracts';
import {
  ADMIN_ROLE,
  booleanTextResponse,
  ErrorSchema,
  errorBody,
  Id,
  Minute,
  replyTrue,
  validateWith,
} from '@lakecams/service-kit';
import { Type } from 'typebox';
import { imageOf } from '../../../capture/capture-tick.ts';
import type { ImagingComposition } from '../../../composition.ts';

/** How far an admin's clock may run ahead when the position dialog names the current minute. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** Where a camera stands, from a picture on (Admin): its row and its pictures from then, announced again. */
const positionRoutes: FastifyPluginAsyncTypebox<Pick<ImagingComposition, 'history'>> = async (app, { history }) => {
  app.post(
    '/api/Image/SetPosition/set',
    {
      onRequest: app.requireRole(ADMIN_ROLE),
      // The position dialog's rules and messages: the server refuses what the form refuses.
      preValidation: validateWith(POSITION_RULES, 'body'),
      schema: {
        summary: 'Set the position of a camera from the image named by a timestamp on (Admin)',
        body: Type.Object({
          webcamId: Id(),
          lat: Type.Number({ minimum: 47, maximum: 48 }),
          lng: Type.Number({ minimum: 5.9, maximum: 10.5 }),
          direction: Type.Integer({ minimum: 0, maximum: 359 }),
          name: Minute(),
        }),
        response: { ...booleanTextResponse, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const { webcamId, lat, lng, direction, name } = request.body;
      // The position holds from that minute on and is the camera's at once: a later minute would say otherwise.
      if (name > imageNameOf(new Date(Date.now() + CLOCK_SKEW_MS)))
        return reply.code(400).send(errorBody(400, `body/name lies in the future: ${name} has no picture yet`));
      const camera = await history.movePosition(webcamId, name, { lat, lng, direction }, imageOf);
      if (!camera) return reply.code(404).send(errorBody(404, `Unknown camera ${webcamId}`));
      return replyTrue(reply);
    },
  );
};

export default positionRoutes;
