import { pictureCacheLookups } from '@lakecams/service-kit';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import { scheduleNightlyPrune } from './archive/nightly-prune.ts';
import { createTimelapseJobs, type TimelapseJobs } from './archive/timelapse-jobs.ts';
import { type CapturePipeline, createCapturePipeline } from './capture/capture-pipeline.ts';
import { createFtpPush, type FtpPush } from './capture/ftp-push.ts';
import type { Database } from './database.ts';
import { registerCameraHealthMetrics } from './delivery/camera-health.ts';
import { createDeliveryState, type DeliveryStates } from './delivery/delivery-state.ts';
import { createPageOwnerCheck, type PageOwnerCheck } from './delivery/page-owner.ts';
import { createPictureDelivery, type PictureDelivery } from './delivery/picture-delivery.ts';
import { type CameraHealthWatch, createCameraHealthWatch } from './health/camera-health-watch.ts';
import { createImagingMessaging, type ImagingMessaging, startImagingMessaging } from './messaging.ts';
import type { ImagingOptions } from './options.ts';
import { type BestOfChoiceRepository, createBestOfChoiceRepository } from './repositories/best-of-choice-repository.ts';
import { type CameraAccessRepository, createCameraAccessRepository } from './repositories/camera-access-repository.ts';
import {
  type CameraChange,
  type CameraDirectory,
  createCameraDirectoryRepository,
} from './repositories/camera-directory-repository.ts';
import { createCameraHealthRepository } from './repositories/camera-health-repository.ts';
import {
  type CameraSources,
  createCameraSourceRepository,
  DEFAULT_FTP_PORT,
} from './repositories/camera-source-repository.ts';
import { type CaptureClaimRepository, createCaptureClaimRepository } from './repositories/capture-claim-repository.ts';
import {
  type CaptureHistoryRepository,
  createCaptureHistoryRepository,
} from './repositories/capture-history-repository.ts';
import { type CaptureQueryRepository, createCaptureQueryRepository } from './repositories/capture-query-repository.ts';
import { createEmbedViewRepository, type EmbedViewRepository } from './repositories/embed-view-repository.ts';
import { createJobRunRepository, type JobRunRepository } from './repositories/job-run-repository.ts';
import { createLayerRepository, type LayerRepository } from './repositories/layer-repository.ts';
import { createTimelapseRepository, type TimelapseRepository } from './repositories/timelapse-repository.ts';
import embedRoutes from './routes/api/Image/embed.ts';
import pictureRoutes from './routes/api/Image/pictures.ts';
import positionRoutes from './routes/api/Image/position.ts';
import pushRoutes from './routes/api/Image/push.ts';
import sourceRoutes from './routes/api/Image/source.ts';
import timelapseRoutes from './routes/api/Image/timelapse.ts';
import uploadRoutes from './routes/api/Image/upload.ts';
import zoomRoutes from './routes/api/Image/zoom.ts';
import jobRoutes from './routes/api/Jobs/index.ts';
import timelapseDashboardRoutes from './routes/api/Jobs/timelapses.ts';

/** What svc-imaging is made of, built once per instance; routes get the parts they use as parameters. */
export interface ImagingComposition {
  cameraDirectory: CameraDirectory;
  cameraSources: CameraSources;
  cameraAccess: CameraAccessRepository;
  /** Claims on cameras' ticks and their outcome. */
  claims: CaptureClaimRepository;
  /** The stored captures, read. */
  captures: CaptureQueryRepository;
  /** Stored captures changed after the fact: a camera's position, the archive's thinning. */
  history: CaptureHistoryRepository;
  jobRuns: JobRunRepository;
  bestOfChoices: BestOfChoiceRepository;
  layers: LayerRepository;
  timelapseRepository: TimelapseRepository;
  embedViews: EmbedViewRepository;
  messaging: ImagingMessaging;
  /** Each camera's delivery state (camera, latest capture, offline reason, access), from memory. */
  deliveryStates: DeliveryStates;
  /** Decides the caller's level and answers pictures by their names (with layers drawn in). */
  pictures: PictureDelivery;
  maySeePage: PageOwnerCheck;
  /** Signs picture links and the framed player's page passes; the same on every replica. */
  linkSecret: string;
  capture: CapturePipeline;
  ftp: FtpPush;
  cameraHealth: CameraHealthWatch;
  timelapses: TimelapseJobs;
}

const built = new WeakMap<FastifyInstance, ImagingComposition>();

/** The parts of a built svc-imaging app (tests drive captures and read state through them). */
export function compositionOf(app: FastifyInstance): ImagingComposition {
  const composition = built.get(app);
  if (!composition) throw new Error('Not an svc-imaging app');
  return composition;
}

/**
 * svc-imaging's composition root: repositories on the service's database, then delivery (what is held of each
 * camera, the picture delivery), the capture pipeline, the FTP ingest, camera health, the nightly prune and
 * time-lapse jobs, then what the service hears on the bus, then the routes. A capture drops this replica's
 * delivery state of its camera by a direct call and tells the other replicas over the bus. The app brings only
 * what the service kit decorates it with: the bus, metrics, the caller (`request.principal`) and the database's
 * readiness.
 */
export async function composeImagingService(
  app: FastifyInstance,
  options: ImagingOptions,
  db: Kysely<Database>,
): Promise<ImagingComposition> {
  const repositories = {
    cameraDirectory: createCameraDirectoryRepository(db),
    cameraSources: createCameraSourceRepository(db, options.cameraSecretKey, {
      host: options.ftp?.publicHost ?? null,
      port: options.ftp?.port ?? DEFAULT_FTP_PORT,
      tls: options.ftp?.tls !== undefined,
    }),
    cameraAccess: createCameraAccessRepository(db),
    claims: createCaptureClaimRepository(db),
    captures: createCaptureQueryRepository(db),
    history: createCaptureHistoryRepository(db),
    jobRuns: createJobRunRepository(db),
    bestOfChoices: createBestOfChoiceRepository(db),
    layers: createLayerRepository(db),
    timelapseRepository: createTimelapseRepository(db),
    embedViews: createEmbedViewRepository(db),
  };
  const { cameraDirectory, cameraSources, cameraAccess, captures, layers } = repositories;

  const messaging = createImagingMessaging(app);

  // One secret signs picture links and the framed player's page passes (routes/api/Image/embed.ts).
  const linkSecret = options.pictureLinks?.secret ?? randomBytes(32).toString('hex');
  const deliveryStates = createDeliveryState({ cameraDirectory, captures, cameraAccess });
  registerCameraHealthMetrics(app.metrics, captures);
  const maySeePage = createPageOwnerCheck(messaging);

  // What a camera's delivery depends on changed here: forget it here at once, and tell the other replicas.
  const cameraRefreshed = async (webcamId: number) => {
    await deliveryStates.forget(webcamId);
    await messaging.tellReplicasCameraRefreshed(webcamId);
  };
  const capture = createCapturePipeline(app, options, { ...repositories, refreshed: cameraRefreshed });
  const pictures = createPictureDelivery({
    deliveryStates,
    captures,
    layers,
    store: capture.store,
    links: {
      secret: linkSecret,
      baseUrl: options.pictureLinks?.baseUrl ?? '',
      windowSeconds: options.pictureLinks?.windowSeconds,
    },
    recentPicturesBytes: options.recentPicturesBytes ?? 32 * 1024 * 1024,
    composedCacheBytes: options.composedCacheBytes,
    cacheLookups: {
      recent: pictureCacheLookups(app.metrics, 'recent'),
      composed: pictureCacheLookups(app.metrics, 'composed'),
    },
  });
  const ftp = createFtpPush(app, options, { cameraSources, cameraDirectory, capture: capture.context });
  const cameraHealth = createCameraHealthWatch(app, createCameraHealthRepository(db), {
    ...(options.schedule ? { schedule: true } : {}),
    ...(options.healthMails === undefined ? {} : { mails: options.healthMails }),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  scheduleNightlyPrune(app, options, capture.context);
  const timelapses = createTimelapseJobs(app, options, {
    capture: capture.context,
    cameraDirectory,
    timelapseRepository: repositories.timelapseRepository,
  });

  await startImagingMessaging(app, {
    ...repositories,
    forgetDelivery: (webcamId) => deliveryStates.forget(webcamId),
    cameraRefreshed,
    async cameraChanged(change: CameraChange) {
      deliveryStates.forgetAll();
      pictures.forgetCamera(change.camera.webcamId);
      await capture.cameraChanged(change).catch((err) => app.log.warn({ err }, 'camera change not followed'));
    },
    layersChanged(webcamIds) {
      layers.forget(webcamIds);
      for (const webcamId of webcamIds) pictures.forgetLayers(webcamId);
    },
  });

  const composition: ImagingComposition = {
    ...repositories,
    messaging,
    deliveryStates,
    pictures,
    maySeePage,
    linkSecret,
    capture,
    ftp,
    cameraHealth,
    timelapses,
  };
  built.set(app, composition);
  await app.register(pictureRoutes, composition);
  await app.register(embedRoutes, composition);
  await app.register(positionRoutes, composition);
  await app.register(uploadRoutes, composition);
  await app.register(zoomRoutes, composition);
  await app.register(sourceRoutes, composition);
  await app.register(pushRoutes, composition);
  await app.register(jobRoutes, composition);
  await app.register(timelapseRoutes, composition);
  await app.register(timelapseDashboardRoutes, composition);
  return composition;
}
