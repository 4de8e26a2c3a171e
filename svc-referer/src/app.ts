import { type RefererUser, SUBJECTS } from '@lakecams/contracts';
import type { ServiceDefinition } from '@lakecams/service-kit';
import type { Kysely } from 'kysely';
import type { Database } from './database.ts';
import { migrations } from './migrations/index.ts';
import layerRepository from './plugins/app/layer-repository.ts';
import refererAccess from './plugins/app/referer-access.ts';
import refererAdministrationRoutes from './routes/api/Referer/administration.ts';
import refererRoutes from './routes/api/Referer/index.ts';
import layerRoutes from './routes/api/Referer/layers.ts';

/** svc-referer: referer users, layers and the pages using the service. */
export const refererService: ServiceDefinition = {
  name: 'referer',
  version: '0.1.0',
  migrations,
  plugin: async (app) => {
    await app.register(refererAccess);
    await app.register(layerRepository);
    await app.register(refererRoutes);
    await app.register(refererAdministrationRoutes);
    await app.register(layerRoutes);
    // svc-webcam looks up a referer user's page when a booking names one.
    const db = app.db as Kysely<Database>;
    const lookup = await app.bus.respond<{ id: number }, RefererUser | null>(
      'referer.user.get',
      async ({ data }) =>
        (await db
          .selectFrom('refererUsers')
          .select(['id', 'userEmail', 'url'])
          .where('id', '=', Number(data.id))
          .executeTakeFirst()) ?? null,
      { queue: 'svc-referer' },
    );
    // svc-imaging lets a page's owner preview the page's picture.
    const owned = await app.bus.respond<{ userId: string; url: string }, boolean>(
      SUBJECTS.pageOwned,
      async ({ data }) =>
        typeof data.userId === 'string' &&
        typeof data.url === 'string' &&
        (await db
          .selectFrom('refererUsers')
          .select('id')
          .where('userId', '=', data.userId)
          .where('url', '=', data.url)
          .executeTakeFirst()) !== undefined,
      { queue: 'svc-referer' },
    );
    app.addHook('onClose', async () => {
      await lookup.unsubscribe();
      await owned.unsubscribe();
    });
  },
};
