import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { type CameraListCache, createCameraListCache } from './camera-list-cache.ts';
import type { Database } from './database.ts';
import { seedDemoCameras } from './demo-cameras.ts';
import { startWebcamMessaging, type WebcamMessaging } from './messaging.ts';
import type { WebcamServiceOptions } from './options.ts';
import { type AccessRepository, createAccessRepository } from './repositories/access-repository.ts';
import { type BestOfRepository, createBestOfRepository } from './repositories/best-of-repository.ts';
import { createKnownUserRepository, type KnownUserRepository } from './repositories/known-user-repository.ts';
import { createWebcamRepository, type WebcamRepository } from './repositories/webcam-repository.ts';
import newsRoutes from './routes/api/News/index.ts';
import webcamAdministrationRoutes from './routes/api/Webcam/administration.ts';
import bestOfRoutes from './routes/api/Webcam/best-of.ts';
import webcamRoutes from './routes/api/Webcam/index.ts';

/** What svc-webcam is made of, built once per instance; routes get the parts they use as parameters. */
export interface WebcamComposition {
  webcams: WebcamRepository;
  access: AccessRepository;
  knownUsers: KnownUserRepository;
  bestOf: BestOfRepository;
  cameraList: CameraListCache;
  messaging: WebcamMessaging;
}

/**
 * svc-webcam's composition root: repositories on the service's database, then the camera list served from
 * memory (and the demo cameras, when asked for), then what the service hears and says on the bus, then the
 * routes. The app brings only what the service kit decorates it with: the bus, metrics, the caller
 * (`request.principal`) and the database's readiness.
 */
export async function composeWebcamService(
  app: FastifyInstance,
  options: WebcamServiceOptions,
  db: Kysely<Database>,
): Promise<WebcamComposition> {
  const webcams = createWebcamRepository(db);
  const access = createAccessRepository(db);
  const knownUsers = createKnownUserRepository(db);
  const bestOf = createBestOfRepository(db);

  const cameraList = createCameraListCache(webcams);
  if (options.demoCameras) await seedDemoCameras(webcams, app.log);

  const messaging = await startWebcamMessaging(app, { webcams, access, knownUsers, cameraList });

  const composition = { webcams, access, knownUsers, bestOf, cameraList, messaging };
  await app.register(webcamRoutes, composition);
  await app.register(webcamAdministrationRoutes, composition);
  await app.register(bestOfRoutes, composition);
  await app.register(newsRoutes, composition);
  return composition;
}
