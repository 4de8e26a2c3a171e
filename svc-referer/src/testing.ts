/** For tests, this package's own and other packages' (`@lakecams/svc-referer/testing`). */
import { buildTestService, type TestServiceOptions } from '@lakecams/service-kit/testing';
import { refererService } from './app.ts';

export type { Database } from './database.ts';

export type BuildRefererServiceOptions = Omit<TestServiceOptions<Record<never, never>>, 'options'>;
export type RefererTestService = Awaited<ReturnType<typeof buildRefererService>>;

/** svc-referer for one test, as the kit's `buildTestService` builds a service (its own database and test bus). */
export function buildRefererService(given: BuildRefererServiceOptions = {}) {
  return buildTestService(refererService, { ...given, options: {} });
}
