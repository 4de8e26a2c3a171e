import { type BestOfChosen, SUBJECTS } from '@lakecams/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from './database.ts';

/** What svc-imaging hears for the archive: an admin's best of a day, which the prune keeps forever. */
export default fp(
  async (app: FastifyInstance) => {
    const db = app.db as Kysely<Database>;
    const chosen = await app.bus.consume<BestOfChosen>(
      async (message) => {
        const { webcamId, day, image } = message.data;
        if (image) {
          await db
            .insertInto('bestOfChoices')
            .values({ webcamId, day, name: image })
            .onConflict((oc) => oc.columns(['webcamId', 'day']).doUpdateSet({ name: image }))
            .execute();
        } else {
          await db.deleteFrom('bestOfChoices').where('webcamId', '=', webcamId).where('day', '=', day).execute();
        }
        message.ack();
      },
      { durable: 'svc-imaging-best-of', filter: SUBJECTS.bestOfChosen },
    );
    app.addHook('onClose', async () => {
      await chosen.unsubscribe();
    });
  },
  { name: 'imaging-messaging', dependencies: ['database'] },
);
