import type { ServiceDefinition } from '@lakecams/service-kit';
import { composeIdentityService } from './composition.ts';
import type { Database } from './database.ts';
import { migrations } from './migrations/index.ts';
import type { IdentityOptions } from './options.ts';

export type { IdentityOptions } from './options.ts';
export {
  type IdentityConfig,
  IdentityConfigSchema,
  type IdentityRuntime,
  identityOptionsFromConfig,
  loadIdentityConfig,
} from './config.ts';
export { firstAdminFromEnvironment } from './accounts/first-admin.ts';

/** svc-identity: users, roles, tokens, registration, feature codes, contact, and the mail they send. */
export const identityService: ServiceDefinition<IdentityOptions, Database> = {
  name: 'identity',
  version: '0.2.0',
  migrations,
  plugin: async (app, options, db) => {
    await composeIdentityService(app, options, db);
  },
};
