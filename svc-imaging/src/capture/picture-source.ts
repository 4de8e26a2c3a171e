import { PULLED_SOURCE_KINDS } from '@lakecams/contracts';
import type { CameraRow } from '../database.ts';
import type { CameraSources } from '../repositories/camera-source-repository.ts';
import { CameraFetchError, type FetchLimits, fetchCameraImage } from './camera-fetch.ts';
import { grabStreamFrame } from './stream-frame.ts';

/** Fetches a camera's picture the way its source says: its URL with its login; pushing cameras are not fetched. */
export function pictureSource(sources: CameraSources) {
  return async (camera: CameraRow, at: Date, limits: FetchLimits): Promise<Buffer> => {
    const source = await sources.of(camera.webcamId);
    if (!PULLED_SOURCE_KINDS.includes(source.kind))
      throw new CameraFetchError('This camera sends its pictures itself (FTP or HTTP upload); it is not fetched', {
        final: true,
      });
    const login = sources.login(source);
    if (source.kind === 'stream')
      return grabStreamFrame(camera.pattern, { ...limits, transport: source.transport, login });
    return fetchCameraImage(camera.pattern, at, limits, login);
  };
}

/** Whether the camera's schedule fetches it: cameras that push their pictures have no ticks of their own. */
export async function isPulled(sources: CameraSources, webcamId: number): Promise<boolean> {
  return PULLED_SOURCE_KINDS.includes((await sources.of(webcamId)).kind);
}
