import type { CameraUpserted, PayloadOf } from '@lakecams/contracts/messages';
import type { Kysely } from 'kysely';
import type { CameraRow, Database } from '../database.ts';

/** A camera as svc-webcam announces it, and for new demo cameras their first position. */
export type CameraEvent = PayloadOf<typeof CameraUpserted>;
export type CameraChange = { camera: CameraRow; deleted: boolean };

/** The `cameras` table: the cameras as svc-webcam announces them (messaging.ts applies the changes). */
export function createCameraDirectoryRepository(db: Kysely<Database>) {
  return {
    async upsert(event: CameraEvent): Promise<CameraRow> {
      const row = { webcamId: event.id, name: event.name, pattern: event.pattern, intervalMin: event.intervalMin };
      const position = event.position ?? {};
      return db
        .insertInto('cameras')
        .values({ ...row, lat: null, lng: null, direction: null, ...position })
        .onConflict((oc) =>
          oc
            .column('webcamId')
            .doUpdateSet({ name: row.name, pattern: row.pattern, intervalMin: row.intervalMin, ...position }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    async remove(webcamId: number): Promise<CameraRow | undefined> {
      return db.deleteFrom('cameras').where('webcamId', '=', webcamId).returningAll().executeTakeFirst();
    },
    byId(webcamId: number) {
      return db.selectFrom('cameras').selectAll().where('webcamId', '=', webcamId).executeTakeFirst();
    },
    byName(name: string) {
      return db.selectFrom('cameras').selectAll().where('name', '=', name).executeTakeFirst();
    },
    list() {
      return db.selectFrom('cameras').selectAll().orderBy('name').execute();
    },
    /** False when there is no such camera. */
    async setPaused(webcamId: number, paused: boolean): Promise<boolean> {
      const updated = await db
        .updateTable('cameras')
        .set({ paused })
        .where('webcamId', '=', webcamId)
        .executeTakeFirst();
      return Boolean(updated.numUpdatedRows);
    },
  };
}

export type CameraDirectory = ReturnType<typeof createCameraDirectoryRepository>;
