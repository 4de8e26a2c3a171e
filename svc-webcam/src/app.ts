import type { ServiceDefinition } from '@lakecams/service-kit';
import type { Database } from './database.ts';
import messaging from './messaging.ts';
import { migrations } from './migrations/index.ts';
import accessRepository from './plugins/app/access-repository.ts';
import bestOfRepository from './plugins/app/best-of-repository.ts';
import cameraListCache from './plugins/app/camera-list-cache.ts';
import demoSeed, { type DemoSeedOptions } from './plugins/app/demo-seed.ts';
import webcamRepository from './plugins/app/webcam-repository.ts';
import newsRoutes from './routes/api/News/index.ts';
import webcamAdministrationRoutes from './routes/api/Webcam/administration.ts';
import bestOfRoutes from './routes/api/Webcam/best-of.ts';
import webcamRoutes from './routes/api/Webcam/index.ts';

export type WebcamServiceOptions = DemoSeedOptions;
export { type WebcamConfig, WebcamConfigSchema, loadWebcamConfig, webcamOptionsFromConfig } from './config.ts';

/** svc-webcam: cameras, their image metadata and the news text. */
export const webcamService: ServiceDefinition<WebcamServiceOptions, Database> = {
  name: 'webcam',
  version: '0.1.0',
  migrations,
  plugin: async (app, options, db) => {
    await app.register(webcamRepository, { db });
    await app.register(accessRepository, { db });
    await app.register(bestOfRepository, { db });
    await app.register(cameraListCache);
    await app.register(demoSeed, options);
    await app.register(messaging);
    await app.register(webcamRoutes);
    await app.register(webcamAdministrationRoutes);
    await app.register(bestOfRoutes);
    await app.register(newsRoutes);
  },
};
