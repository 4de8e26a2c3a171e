import type { ServiceDefinition } from '@lakecams/service-kit';
import type { FastifyInstance } from 'fastify';
import messaging from './messaging.ts';
import { migrations } from './migrations/index.ts';
import bestOfRepository from './plugins/app/best-of-repository.ts';
import demoSeed, { type DemoSeedOptions } from './plugins/app/demo-seed.ts';
import cameraListCache from './plugins/app/camera-list-cache.ts';
import imageProjection from './plugins/app/image-projection.ts';
import accessRepository from './plugins/app/access-repository.ts';
import webcamRepository from './plugins/app/webcam-repository.ts';
import newsRoutes from './routes/api/News/index.ts';
import webcamAdministrationRoutes from './routes/api/Webcam/administration.ts';
import bestOfRoutes from './routes/api/Webcam/best-of.ts';
import webcamRoutes from './routes/api/Webcam/index.ts';

export type WebcamServiceOptions = DemoSeedOptions;

/** svc-webcam: cameras, their image metadata and the news text. */
export const webcamService: ServiceDefinition<WebcamServiceOptions> = {
  name: 'webcam',
  version: '0.1.0',
  migrations,
  plugin: async (app: FastifyInstance, options: WebcamServiceOptions) => {
    await app.register(webcamRepository);
    await app.register(cameraListCache);
    await app.register(demoSeed, options);
    await app.register(imageProjection);
    await app.register(bestOfRepository);
    await app.register(messaging);
    await app.register(accessRepository);
    await app.register(webcamRoutes);
    await app.register(webcamAdministrationRoutes);
    await app.register(bestOfRoutes);
    await app.register(newsRoutes);
  },
};
