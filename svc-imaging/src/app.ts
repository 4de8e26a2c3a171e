import type { ServiceDefinition } from '@lakecams/service-kit';
import type { FastifyInstance } from 'fastify';
import messaging from './messaging.ts';
import { migrations } from './migrations/index.ts';
import type { ImagingOptions } from './options.ts';
import cameraAccess from './plugins/app/camera-access.ts';
import cameraDirectory from './plugins/app/camera-directory.ts';
import capturePipeline from './plugins/app/capture-pipeline.ts';
import deliveryState from './plugins/app/delivery-state.ts';
import layerStore from './plugins/app/layer-store.ts';
import imageRoutes from './routes/api/Image/index.ts';
import zoomRoutes from './routes/api/Image/zoom.ts';
import jobRoutes from './routes/api/Jobs/index.ts';
import timelapseJobs from './plugins/app/timelapse-jobs.ts';
import timelapseRepository from './plugins/app/timelapse-repository.ts';
import timelapseRoutes from './routes/api/Image/timelapse.ts';
import timelapseDashboardRoutes from './routes/api/Jobs/timelapses.ts';

export type { ImagingOptions } from './options.ts';
export { type ImagingConfig, ImagingConfigSchema, imagingOptionsFromConfig, loadImagingConfig } from './config.ts';

/** svc-imaging: captures, quality variants, layers, image delivery and the job dashboard. */
export const imagingService: ServiceDefinition<ImagingOptions> = {
  name: 'imaging',
  version: '0.2.0',
  migrations,
  plugin: async (app: FastifyInstance, options: ImagingOptions) => {
    await app.register(cameraDirectory);
    await app.register(cameraAccess);
    await app.register(layerStore);
    await app.register(deliveryState);
    await app.register(capturePipeline, options);
    await app.register(messaging);
    await app.register(imageRoutes, {
      demoSource: options.demoSource ?? false,
      ...(options.pictureLinks ? { pictureLinks: options.pictureLinks } : {}),
      composedCacheBytes: options.composedCacheBytes,
      recentPicturesBytes: options.recentPicturesBytes,
    });
    await app.register(zoomRoutes);
    await app.register(jobRoutes);
    await app.register(timelapseRepository);
    await app.register(timelapseJobs, options);
    await app.register(timelapseRoutes);
    await app.register(timelapseDashboardRoutes);
  },
};
