import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from './database.ts';
import { type RefererMessaging, startRefererMessaging } from './messaging.ts';
import { createRefererAccess, type RefererAccess } from './referer-access.ts';
import { createKnownUserRepository, type KnownUserRepository } from './repositories/known-user-repository.ts';
import { createLayerRepository, type LayerRepository } from './repositories/layer-repository.ts';
import { createRefererUserRepository, type RefererUserRepository } from './repositories/referer-user-repository.ts';
import refererAdministrationRoutes from './routes/api/Referer/administration.ts';
import refererRoutes from './routes/api/Referer/index.ts';
import layerRoutes from './routes/api/Referer/layers.ts';

/** What svc-referer is made of, built once per instance; routes get the parts they use as parameters. */
export interface RefererComposition {
  refererUsers: RefererUserRepository;
  knownUsers: KnownUserRepository;
  layers: LayerRepository;
  messaging: RefererMessaging;
  access: RefererAccess;
}

/**
 * svc-referer's composition root: repositories on the service's database, then what the service hears and asks
 * on the bus, then who may act for which page, then the routes. The app brings only what the service kit
 * decorates it with: the bus, metrics, the caller (`request.principal`) and the database's readiness.
 */
export async function composeRefererService(app: FastifyInstance, db: Kysely<Database>): Promise<RefererComposition> {
  const refererUsers = createRefererUserRepository(db);
  const knownUsers = createKnownUserRepository(db);
  const layers = createLayerRepository(db);

  const messaging = await startRefererMessaging(app, { refererUsers, layers, knownUsers });
  const access = createRefererAccess(refererUsers, messaging);

  const composition = { refererUsers, knownUsers, layers, messaging, access };
  await app.register(refererRoutes, composition);
  await app.register(refererAdministrationRoutes, composition);
  await app.register(layerRoutes, composition);
  return composition;
}
