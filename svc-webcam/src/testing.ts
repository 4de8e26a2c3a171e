/** For tests, this package's own and other packages' (`@lakecams/svc-webcam/testing`). */
import { buildTestService, type TestServiceOptions } from '@lakecams/service-kit/testing';
import { type WebcamServiceOptions, webcamService } from './app.ts';

export type { Database } from './database.ts';
export { DEMO_CAMERAS } from './demo-cameras.ts';

export type BuildWebcamServiceOptions = TestServiceOptions<WebcamServiceOptions>;
export type WebcamTestService = Awaited<ReturnType<typeof buildWebcamService>>;

/** svc-webcam for one test, as the kit's `buildTestService` builds a service (its own database and test bus). */
export function buildWebcamService(given: BuildWebcamServiceOptions = {}) {
  return buildTestService(webcamService, given);
}
