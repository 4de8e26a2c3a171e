import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isValidCameraName } from '@lakecams/contracts';
import { ErrorSchema, errorBody, httpError } from '@lakecams/service-kit';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ImagingComposition } from '../../../composition.ts';
import { nowOf } from '../../../capture/capture-tick.ts';
import { ingestPicture } from '../../../capture/picture-ingest.ts';

/** As a camera's fetched picture (docs/decisions.md, "Camera URLs"). */
const PUSH_BYTES = 25 * 1024 * 1024;
const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/octet-stream'];

/** The secret a camera sends: `Authorization: Bearer <secret>`, or Basic with the camera's name as the user. */
export function pushSecretOf(authorization: string | undefined, camera: string): string | null {
  const [scheme, value] = (authorization ?? '').split(' ', 2);
  if (!value) return null;
  if (scheme?.toLowerCase() === 'bearer') return value.trim();
  if (scheme?.toLowerCase() !== 'basic') return null;
  const decoded = Buffer.from(value.trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 && decoded.slice(0, colon) === camera ? decoded.slice(colon + 1) : null;
}

/**
 * Cameras and scripts that speak HTTP push their pictures here (PUT or POST, the picture as the body or the
 * multipart field `file`), authenticated by the camera's own secret, never by a cookie; each is a capture.
 */
const pushRoutes: FastifyPluginAsyncTypebox<
  Pick<ImagingComposition, 'cameraDirectory' | 'cameraSources' | 'capture'>
> = async (app, { cameraDirectory, cameraSources, capture }) => {
  await app.register(multipart, { limits: { fileSize: PUSH_BYTES, files: 1, fields: 5 } });
  app.addContentTypeParser(PICTURE_TYPES, { parseAs: 'buffer', bodyLimit: PUSH_BYTES }, (_request, body, done) =>
    done(null, body),
  );
  // Cameras and `curl -T` often send the picture with no Content-Type: the bytes decide. A type that names
  // something else (text, JSON) is refused as on every route.
  app.removeContentTypeParser('*');
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: PUSH_BYTES }, (request, body, done) => {
    const type = request.headers['content-type']?.split(';')[0]?.trim();
    if (type)
      return done(
        httpError(415, `A picture is sent as ${PICTURE_TYPES.join(', ')} or multipart/form-data, not ${type}`),
      );
    done(null, body);
  });

  async function pictureOf(request: FastifyRequest): Promise<Buffer | null> {
    if (!request.isMultipart()) return Buffer.isBuffer(request.body) ? request.body : null;
    const file = await request.file();
    return file?.fieldname === 'file' ? file.toBuffer() : null;
  }

  const handler = async (
    request: FastifyRequest<{ Params: { file: string } }>,
    reply: import('fastify').FastifyReply,
  ) => {
    const name = request.params.file.endsWith('.jpg') ? request.params.file.slice(0, -4) : '';
    const camera = isValidCameraName(name) ? await cameraDirectory.byName(name) : undefined;
    if (!camera) return reply.code(404).send(errorBody(404, `Unknown camera ${request.params.file}`));
    const secret = pushSecretOf(request.headers.authorization, camera.name);
    if (!secret || !(await cameraSources.acceptsPush(camera.webcamId, secret))) {
      request.log.warn(
        { camera: camera.name, reason: secret ? 'wrong secret or not a push camera' : 'no secret' },
        'picture push refused',
      );
      reply.header('www-authenticate', `Basic realm="${camera.name}"`);
      return reply.code(401).send(errorBody(401, 'This camera takes pictures only with its upload secret'));
    }
    let bytes: Buffer | null;
    try {
      bytes = await pictureOf(request);
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode) throw error;
      return reply.code(400).send(errorBody(400, 'The upload is not valid multipart/form-data'));
    }
    if (!bytes?.length)
      return reply.code(400).send(errorBody(400, 'Send the picture as the body (image/jpeg) or in the field "file"'));
    const result = await ingestPicture(capture.context, camera, bytes, nowOf(capture.context));
    if (result.outcome === 'refused') {
      request.log.warn({ camera: camera.name, reason: result.message }, 'picture push refused');
      return reply.code(result.status).send(errorBody(result.status, result.message));
    }
    if (result.outcome === 'skipped')
      return reply.code(409).send(errorBody(409, 'A capture of this minute is running, please retry shortly'));
    if (result.outcome === 'failed') return reply.code(400).send(errorBody(400, result.error));
    await cameraSources.recordUpload(camera.webcamId, result.image.name, 'push');
    return reply.code(201).send({ name: result.image.name });
  };

  const schema = (method: string) => ({
    summary: `${method} a picture from the camera (body image/jpeg, png or webp, or multipart field file); its upload secret as Bearer or Basic password`,
    consumes: [...PICTURE_TYPES, 'multipart/form-data'],
    params: Type.Object({ file: Type.String({ maxLength: 80, description: '<camera>.jpg' }) }),
    response: {
      201: Type.Object({ name: Type.String({ description: 'The picture, yyyyMMddHHmm' }) }),
      400: ErrorSchema,
      401: ErrorSchema,
      404: ErrorSchema,
      409: ErrorSchema,
      413: ErrorSchema,
      415: ErrorSchema,
    },
  });
  app.put('/api/Image/Push/camera/:file', { schema: schema('PUT'), bodyLimit: PUSH_BYTES }, handler);
  app.post('/api/Image/Push/camera/:file', { schema: schema('POST'), bodyLimit: PUSH_BYTES }, handler);
};

export default pushRoutes;
