import type { ServiceDefinition } from '@lakecams/service-kit';
import { composeImagingService } from './composition.ts';
import type { Database } from './database.ts';
import { migrations } from './migrations/index.ts';
import type { ImagingOptions } from './options.ts';

export type { ImagingOptions } from './options.ts';
export {
  ftpOptionsFromConfig,
  type ImagingConfig,
  ImagingConfigSchema,
  imagingOptionsFromConfig,
  loadImagingConfig,
} from './config.ts';

/** svc-imaging: captures, quality variants, layers, image delivery and the job dashboard. */
export const imagingService: ServiceDefinition<ImagingOptions, Database> = {
  name: 'imaging',
  version: '0.2.0',
  migrations,
  plugin: async (app, options, db) => {
    await composeImagingService(app, options, db);
  },
};
