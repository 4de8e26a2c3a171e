import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isValidCameraName, QUALITIES } from '@lakecams/contracts';
import { ErrorSchema, errorBody, mediaResponse } from '@lakecams/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ImagingComposition } from '../../../composition.ts';
import { zoomLevelRefusal } from '../../../delivery/zoom-access.ts';
import { otherSpelling } from '../../../delivery/canonical-address.ts';
import { publicLifetime } from '../../../delivery/picture-links.ts';
import { deepZoomDescriptor, tileAt, type ZoomPicture, zoomAddress } from '../../../archive/zoom-tiles.ts';
import { isoDayOf } from '../../../delivery/picture-delivery.ts';
import { resolveImageQuality } from '../../../delivery/quality-resolution.ts';

const MOMENT = /^\d{12}$/;
const LevelQuery = Type.Object({
  level: Type.Union(
    QUALITIES.map((quality) => Type.Literal(quality)),
    { description: 'The quality level the tiles show; at most the one the caller is entitled to' },
  ),
});
const refusals = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema };
type Level = (typeof QUALITIES)[number];

/** Deep-zoom descriptor and tiles of one picture, at a level the caller is entitled to (Deep Zoom layout). */
const zoomRoutes: FastifyPluginAsyncTypebox<
  Pick<ImagingComposition, 'capture' | 'captures' | 'deliveryStates'>
> = async (app, { capture: pipeline, captures, deliveryStates }) => {
  const zoomTiles = pipeline.context.zoomTiles;
  if (!zoomTiles) throw new Error('svc-imaging needs a folder for deep-zoom tiles');
  const tiles = zoomTiles;

  /** The tiles of a moment, or null once the refusal is sent. */
  async function zoomOf(
    request: FastifyRequest,
    reply: FastifyReply,
    cameraName: string,
    moment: string,
    tile?: { zoomLevel: number; column: number; row: number },
  ): Promise<(ZoomPicture & { folder: string }) | null> {
    const refuse = (status: 401 | 403 | 404, message: string) => {
      reply.code(status).send(errorBody(status, message));
      return null;
    };
    const level = (request.query as { level: Level }).level;
    const spelling = otherSpelling(request.url, zoomAddress({ camera: cameraName, moment, level }, tile));
    if (spelling) return refuse(spelling.status, spelling.message);
    const state = await deliveryStates.of(cameraName);
    if (!state) return refuse(404, `Unknown camera ${cameraName}`);
    const capture = await captures.named(state.camera.webcamId, moment);
    if (!capture) return refuse(404, `No image ${moment} of ${cameraName}`);
    const referer = request.headers.referer ?? null;
    const { quality } = resolveImageQuality(state.access, {
      userId: request.principal?.actingUserId ?? null,
      roles: request.principal?.roles ?? [],
      referer,
      today: isoDayOf(new Date()),
    });
    const refusal = zoomLevelRefusal(level, quality, request.principal !== null);
    if (refusal) return refuse(refusal.status, refusal.message);
    const zoom = await tiles.tilesOf(
      { camera: state.camera.name, imageName: moment, quality: level, version: capture.contentHash ?? '0' },
      () => pipeline.store.read(state.camera.name, moment, level),
    );
    if (!zoom) return refuse(404, `Image ${moment} of ${cameraName} is no longer stored`);
    // Like a named picture: it never changes, but who asks decides whether it may be had, and a level above
    // POOR is public only while the camera's configuration says so.
    const personal = request.principal !== null || referer !== null;
    reply.header(
      'cache-control',
      personal ? 'private, max-age=31536000, immutable' : `public, max-age=${publicLifetime(level)}, immutable`,
    );
    reply.header('vary', 'Authorization, Cookie, Referer');
    reply.header('x-image-quality', level);
    return zoom;
  }

  app.get(
    '/api/Image/Zoom/camera/:camera/:file',
    {
      config: { acceptsAccessCookie: true },
      schema: {
        summary: 'Deep Zoom descriptor of one picture (yyyyMMddHHmm.dzi) at the given level',
        params: Type.Object({ camera: Type.String({ maxLength: 64 }), file: Type.String({ maxLength: 20 }) }),
        querystring: LevelQuery,
        response: {
          200: mediaResponse('The Deep Zoom descriptor', ['application/xml'], { type: 'string' }),
          ...refusals,
        },
      },
    },
    async (request, reply) => {
      const { camera, file } = request.params;
      const moment = file.endsWith('.dzi') ? file.slice(0, -4) : '';
      if (!isValidCameraName(camera) || !MOMENT.test(moment))
        return reply
          .code(400)
          .send(errorBody(400, 'Expected /api/Image/Zoom/camera/<camera>/<yyyyMMddHHmm>.dzi?level=<quality>'));
      const zoom = await zoomOf(request, reply, camera, moment);
      if (!zoom) return reply;
      return reply.type('application/xml').send(deepZoomDescriptor(zoom));
    },
  );

  app.get(
    '/api/Image/Zoom/camera/:camera/:folder/:zoomLevel/:tile',
    {
      config: { acceptsAccessCookie: true },
      schema: {
        summary: 'One deep-zoom tile (<yyyyMMddHHmm>_files/<zoom level>/<column>_<row>.jpg) at the given level',
        params: Type.Object({
          camera: Type.String({ maxLength: 64 }),
          folder: Type.String({ maxLength: 24 }),
          zoomLevel: Type.String({ maxLength: 3 }),
          tile: Type.String({ maxLength: 16 }),
        }),
        querystring: LevelQuery,
        response: { 200: mediaResponse('The tile', ['image/jpeg']), ...refusals },
      },
    },
    async (request, reply) => {
      const { camera, folder, zoomLevel, tile } = request.params;
      const moment = folder.endsWith('_files') ? folder.slice(0, -6) : '';
      if (!isValidCameraName(camera) || !MOMENT.test(moment) || !/^\d{1,2}$/.test(zoomLevel))
        return reply
          .code(400)
          .send(
            errorBody(400, 'Expected /api/Image/Zoom/camera/<camera>/<yyyyMMddHHmm>_files/<level>/<col>_<row>.jpg'),
          );
      if (!/^\d{1,4}_\d{1,4}\.jpg$/.test(tile))
        return reply.code(400).send(errorBody(400, 'A tile is named <column>_<row>.jpg'));
      const [column, row] = tile.slice(0, -'.jpg'.length).split('_').map(Number) as [number, number];
      const zoom = await zoomOf(request, reply, camera, moment, { zoomLevel: Number(zoomLevel), column, row });
      if (!zoom) return reply;
      const at = tileAt(zoom, Number(zoomLevel), tile);
      const bytes = at && (await tiles.readTile(zoom.folder, Number(zoomLevel), at));
      if (!bytes) return reply.code(404).send(errorBody(404, `No tile ${zoomLevel}/${tile} in this picture`));
      return reply.type('image/jpeg').send(bytes);
    },
  );
};

export default zoomRoutes;
