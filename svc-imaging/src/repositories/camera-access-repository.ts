import type { AccessChanged, PayloadOf } from '@lakecams/contracts/messages';
import type { Kysely } from 'kysely';
import type { Database } from '../database.ts';
import type { CameraAccess } from '../delivery/quality-resolution.ts';

/** The `camera_access` table: each camera's configurations and bookings as svc-webcam announces them. */
export function createCameraAccessRepository(db: Kysely<Database>) {
  return {
    of: (webcamId: number): Promise<CameraAccess | undefined> =>
      db
        .selectFrom('cameraAccess')
        .select(['configurations', 'bookings'])
        .where('webcamId', '=', webcamId)
        .executeTakeFirst(),
    /** Keep a camera's access state as svc-webcam announced it. */
    async save({ webcamId, configurations, bookings, permittedUserIds }: PayloadOf<typeof AccessChanged>) {
      const row = {
        configurations: JSON.stringify(configurations),
        bookings: JSON.stringify(bookings),
        permittedUserIds: JSON.stringify(permittedUserIds),
      };
      await db
        .insertInto('cameraAccess')
        .values({ webcamId, ...row })
        .onConflict((oc) => oc.column('webcamId').doUpdateSet(row))
        .execute();
    },
  };
}

export type CameraAccessRepository = ReturnType<typeof createCameraAccessRepository>;
