import type { ServiceDefinition } from '@lakecams/service-kit';
import { randomBytes } from 'node:crypto';
import type { Database } from './database.ts';
import messaging from './messaging.ts';
import { migrations } from './migrations/index.ts';
import type { ImagingOptions } from './options.ts';
import bestOfChoiceRepository from './plugins/app/best-of-choice-repository.ts';
import cameraAccess from './plugins/app/camera-access.ts';
import cameraDirectory from './plugins/app/camera-directory.ts';
import cameraSources from './plugins/app/camera-sources.ts';
import capturePipeline from './plugins/app/capture-pipeline.ts';
import cameraHealthWatch from './health/camera-health-watch.ts';
import ftpPush from './plugins/app/ftp-push.ts';
import captureRepository from './plugins/app/capture-repository.ts';
import deliveryState from './plugins/app/delivery-state.ts';
import jobRunRepository from './plugins/app/job-run-repository.ts';
import layerStore from './plugins/app/layer-store.ts';
import timelapseJobs from './plugins/app/timelapse-jobs.ts';
import timelapseRepository from './plugins/app/timelapse-repository.ts';
import embedViewRepository from './plugins/app/embed-view-repository.ts';
import imageRoutes from './routes/api/Image/index.ts';
import timelapseRoutes from './routes/api/Image/timelapse.ts';
import zoomRoutes from './routes/api/Image/zoom.ts';
import pushRoutes from './routes/api/Image/push.ts';
import sourceRoutes from './routes/api/Image/source.ts';
import jobRoutes from './routes/api/Jobs/index.ts';
import timelapseDashboardRoutes from './routes/api/Jobs/timelapses.ts';

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
    // Repositories: the tables, each behind one module.
    await app.register(cameraDirectory, { db });
    await app.register(cameraSources, { db, options });
    await app.register(cameraAccess, { db });
    await app.register(captureRepository, { db });
    await app.register(jobRunRepository, { db });
    await app.register(bestOfChoiceRepository, { db });
    await app.register(layerStore, { db });
    await app.register(timelapseRepository, { db });
    await app.register(embedViewRepository, { db });
    // Capture, then delivery.
    await app.register(capturePipeline, options);
    await app.register(ftpPush, options);
    await app.register(deliveryState);
    await app.register(cameraHealthWatch, {
      db,
      ...(options.schedule ? { schedule: true } : {}),
      ...(options.healthMails === undefined ? {} : { mails: options.healthMails }),
      ...(options.clock ? { clock: options.clock } : {}),
    });
    await app.register(timelapseJobs, options);
    // One secret signs picture links and the framed player's page passes (routes/api/Image/embed.ts).
    const pictureLinks = {
      ...options.pictureLinks,
      secret: options.pictureLinks?.secret ?? randomBytes(32).toString('hex'),
    };
    await app.register(imageRoutes, {
      pictureLinks,
      composedCacheBytes: options.composedCacheBytes,
      recentPicturesBytes: options.recentPicturesBytes,
    });
    await app.register(zoomRoutes);
    await app.register(sourceRoutes);
    await app.register(pushRoutes);
    await app.register(jobRoutes);
    await app.register(timelapseRoutes, { passSecret: pictureLinks.secret });
    await app.register(timelapseDashboardRoutes);
    // Last: every handler it wires up exists by now.
    await app.register(messaging);
  },
};
