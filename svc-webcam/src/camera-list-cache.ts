import type { CameraListItem } from '@lakecams/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { presentCamera } from '../../camera-presentation.ts';

const compress = promisify(gzip);
/** What a replica missed still shows within this time. */
const MAX_AGE_MS = 2_000;
const MAX_ENTRIES = 256;

export interface CameraListResponse {
  json: Buffer;
  gzip: Buffer;
  etag: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** GetImages as bytes ready to send, plain and gzip, computed once per change. */
    cameraListResponse(name: string | undefined): Promise<CameraListResponse>;
    /** Forget this replica's list (messaging.ts tells the other replicas). */
    forgetCameraList(): void;
  }
}

/**
 * Every visitor's first request is the camera list, the same for everybody until an image or a camera
 * changes: it is serialized and compressed once, then served from memory.
 */
export default fp(
  async (app: FastifyInstance) => {
    const entries = new Map<string, { expires: number; response: Promise<CameraListResponse> }>();
    const build = async (name: string | undefined): Promise<CameraListResponse> => {
      // The same list for everybody: cameras as the public sees them.
      const items: CameraListItem[] = (await app.webcamRepository.listCamerasWithLatestImage({ name })).map((item) => ({
        ...item,
        webcam: presentCamera(item.webcam, null),
      }));
      const json = Buffer.from(JSON.stringify(items));
      return {
        json,
        gzip: await compress(json, { level: 6 }),
        etag: `"${createHash('sha1').update(json).digest('base64url').slice(0, 22)}"`,
      };
    };
    app.decorate('cameraListResponse', (name: string | undefined) => {
      const key = name ?? '';
      const now = Date.now();
      const known = entries.get(key);
      if (known && known.expires > now) return known.response;
      if (entries.size >= MAX_ENTRIES) entries.clear();
      const response = build(name);
      entries.set(key, { expires: now + MAX_AGE_MS, response });
      response.catch(() => entries.delete(key));
      return response;
    });
    app.decorate('forgetCameraList', () => entries.clear());
  },
  { name: 'camera-list-cache', dependencies: ['webcam-repository'] },
);
