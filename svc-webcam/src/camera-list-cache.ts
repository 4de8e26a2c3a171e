import type { CameraListItem } from '@lakecams/contracts';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { presentCamera } from './camera-presentation.ts';
import type { WebcamRepository } from './repositories/webcam-repository.ts';

const compress = promisify(gzip);
/** What a replica missed still shows within this time. */
const MAX_AGE_MS = 2_000;
const MAX_ENTRIES = 256;

export interface CameraListResponse {
  json: Buffer;
  gzip: Buffer;
  etag: string;
}

export interface CameraListCache {
  response(name: string | undefined): Promise<CameraListResponse>;
  forget(): void;
}

/**
 * Every visitor's first request is the camera list, the same for everybody until an image or a camera
 * changes: it is serialized and compressed once, then served from memory.
 */
export function createCameraListCache(webcams: WebcamRepository): CameraListCache {
  const entries = new Map<string, { expires: number; response: Promise<CameraListResponse> }>();
  const build = async (name: string | undefined): Promise<CameraListResponse> => {
    // The same list for everybody: cameras as the public sees them.
    const items: CameraListItem[] = (await webcams.listCamerasWithLatestImage({ name })).map((item) => ({
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
  return {
    /** GetImages as bytes ready to send, plain and gzip, computed once per change. */
    response(name: string | undefined): Promise<CameraListResponse> {
      const key = name ?? '';
      const now = Date.now();
      const known = entries.get(key);
      if (known && known.expires > now) return known.response;
      if (entries.size >= MAX_ENTRIES) entries.clear();
      const response = build(name);
      entries.set(key, { expires: now + MAX_AGE_MS, response });
      response.catch(() => entries.delete(key));
      return response;
    },
    /** Forget this replica's list (messaging.ts tells the other replicas). */
    forget(): void {
      entries.clear();
    },
  };
}
