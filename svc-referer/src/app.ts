import type { ServiceDefinition } from '@lakecams/service-kit';
import type { Database } from './database.ts';
import messaging from './messaging.ts';
import { migrations } from './migrations/index.ts';
import knownUserRepository from './plugins/app/known-user-repository.ts';
import layerRepository from './plugins/app/layer-repository.ts';
import refererAccess from './plugins/app/referer-access.ts';
import refererUserRepository from './plugins/app/referer-user-repository.ts';
import refererAdministrationRoutes from './routes/api/Referer/administration.ts';
import refererRoutes from './routes/api/Referer/index.ts';
import layerRoutes from './routes/api/Referer/layers.ts';

export {
  type RefererConfig,
  RefererConfigSchema,
  type RefererOptions,
  loadRefererConfig,
  refererOptionsFromConfig,
} from './config.ts';

/** svc-referer: referer users, layers and the pages using the service. */
export const refererService: ServiceDefinition<Record<never, never>, Database> = {
  name: 'referer',
  version: '0.1.0',
  migrations,
  plugin: async (app, _options, db) => {
    await app.register(refererUserRepository, { db });
    await app.register(knownUserRepository, { db });
    await app.register(layerRepository, { db });
    await app.register(messaging);
    await app.register(refererAccess);
    await app.register(refererRoutes);
    await app.register(refererAdministrationRoutes);
    await app.register(layerRoutes);
  },
};
