import type { ServiceDefinition } from '@lakecams/service-kit';
import { composeWebcamService } from './composition.ts';
import type { Database } from './database.ts';
import { migrations } from './migrations/index.ts';
import type { WebcamServiceOptions } from './options.ts';

export type { WebcamServiceOptions } from './options.ts';
export { type WebcamConfig, WebcamConfigSchema, loadWebcamConfig, webcamOptionsFromConfig } from './config.ts';

/** svc-webcam: cameras, their image metadata and the news text. */
export const webcamService: ServiceDefinition<WebcamServiceOptions, Database> = {
  name: 'webcam',
  version: '0.1.0',
  migrations,
  plugin: async (app, options, db) => {
    await composeWebcamService(app, options, db);
  },
};
