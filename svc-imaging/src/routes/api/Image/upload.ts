import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ADMIN_ROLE, booleanTextResponse, ErrorSchema, errorBody, Id, replyTrue } from '@lakecams/service-kit';
import { Type } from 'typebox';
import { captureTick } from '../../../capture/capture-tick.ts';
import { uploadProblem } from '../../../capture/picture-ingest.ts';
import type { ImagingComposition } from '../../../composition.ts';

/** Like a capture's size limit (decisions.md, "Camera URLs"). */
const UPLOAD_BYTES = 25 * 1024 * 1024;

/** A picture uploaded by hand (Admin): a capture of the current minute, like a fetched one. */
const uploadRoutes: FastifyPluginAsyncTypebox<Pick<ImagingComposition, 'cameraDirectory' | 'capture'>> = async (
  app,
  { cameraDirectory, capture },
) => {
  await app.register(multipart, { limits: { fileSize: UPLOAD_BYTES, files: 1, fields: 0 } });

  app.post(
    '/api/Image/Upload',
    {
      onRequest: app.requireRole(ADMIN_ROLE),
      config: {
        multipartBody: Type.Object({ file: Type.String({ contentEncoding: 'binary', description: 'The picture' }) }),
      },
      schema: {
        summary: "Upload a picture by hand (multipart field file); it becomes the camera's current image (Admin)",
        consumes: ['multipart/form-data'],
        querystring: Type.Object({ webcamId: Id() }),
        response: {
          ...booleanTextResponse,
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
          409: ErrorSchema,
          413: ErrorSchema,
          415: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart())
        return reply.code(415).send(errorBody(415, 'Send the picture as multipart/form-data'));
      const camera = await cameraDirectory.byId(request.query.webcamId);
      if (!camera) return reply.code(404).send(errorBody(404, `Unknown camera ${request.query.webcamId}`));
      let bytes: Buffer;
      try {
        const file = await request.file();
        if (file?.fieldname !== 'file')
          return reply.code(400).send(errorBody(400, 'The picture goes in the field "file"'));
        bytes = await file.toBuffer();
      } catch (error) {
        // Limits answer with their own status (413); a body that is not multipart as announced is the client's.
        if ((error as { statusCode?: number }).statusCode) throw error;
        return reply.code(400).send(errorBody(400, 'The upload is not valid multipart/form-data'));
      }
      // Refused before it is recorded: a bad upload leaves the camera's history as it was.
      const problem = await uploadProblem(bytes);
      if (problem) return reply.code(problem.status).send(errorBody(problem.status, problem.message));
      const result = await captureTick(capture.context, camera, new Date(), 1, bytes);
      if (result.outcome === 'skipped')
        return reply.code(409).send(errorBody(409, 'A capture of this minute is running, please retry shortly'));
      if (result.outcome === 'failed') return reply.code(400).send(errorBody(400, result.error));
      return replyTrue(reply);
    },
  );
};

export default uploadRoutes;
