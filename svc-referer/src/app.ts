import type { ServiceDefinition } from '@lakecams/service-kit';
import { composeRefererService } from './composition.ts';
import type { Database } from './database.ts';
import { migrations } from './migrations/index.ts';
import type { RefererServiceOptions } from './options.ts';

export type { RefererServiceOptions } from './options.ts';
export {
  type RefererConfig,
  RefererConfigSchema,
  type RefererOptions,
  loadRefererConfig,
  refererOptionsFromConfig,
} from './config.ts';

/** svc-referer: referer users, layers and the pages using the service. */
export const refererService: ServiceDefinition<RefererServiceOptions, Database> = {
  name: 'referer',
  version: '0.1.0',
  migrations,
  plugin: async (app, _options, db) => {
    await composeRefererService(app, db);
  },
};
