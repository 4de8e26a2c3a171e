import type { CameraConfiguration, Quality, RefererBooking, UserRef } from '@lakecams/contracts';
import { AccessChanged } from '@lakecams/contracts/messages';
import { inTransaction, publishEvent } from '@lakecams/service-kit';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, WebcamsTable } from '../database.ts';

export type { CameraConfiguration, RefererBooking, UserRef } from '@lakecams/contracts';

/** What svc-imaging needs to decide a caller's quality, sent whole on every change. */
export interface CameraAccess {
  webcamId: number;
  configurations: { userId: string | null; quality: Quality }[];
  bookings: { url: string; start: string; end: string; quality: Quality }[];
  permittedUserIds: string[];
}

/** A camera's whole access state, as svc-imaging keeps it. */
async function accessOf(db: Kysely<Database>, webcamId: number): Promise<CameraAccess> {
  const [configurations, bookings, permitted] = await Promise.all([
    db.selectFrom('cameraConfigurations').select(['userId', 'quality']).where('webcamId', '=', webcamId).execute(),
    db
      .selectFrom('refererBookings')
      .select(['url', 'startDay', 'endDay', 'quality'])
      .where('webcamId', '=', webcamId)
      .where('url', 'is not', null)
      .execute(),
    db.selectFrom('cameraPermissions').select('userId').where('webcamId', '=', webcamId).execute(),
  ]);
  return {
    webcamId,
    configurations,
    bookings: bookings.map((b) => ({ url: b.url as string, start: b.startDay, end: b.endDay, quality: b.quality })),
    permittedUserIds: permitted.map((p) => p.userId),
  };
}

/**
 * Announce the camera's access state in the transaction that changed it. The camera's row is locked first, so
 * of two changes to one camera the later sees the earlier and its event comes after it.
 */
async function announceAccess(trx: Transaction<Database>, webcamId: number): Promise<void> {
  await trx.selectFrom('webcams').select('id').where('id', '=', webcamId).forNoKeyUpdate().execute();
  await publishEvent(trx, AccessChanged, await accessOf(trx, webcamId));
}

/** Every change of a camera's access is announced with it (svc-imaging decides qualities from it). */
export function createAccessRepository(db: Kysely<Database>) {
  const userRef = (row: { userId: string | null; userName: string | null; email: string | null }): UserRef | null =>
    row.userId ? { id: row.userId, userName: row.userName ?? '', email: row.email ?? '' } : null;

  return {
    async permittedUsers(webcamId: number): Promise<UserRef[]> {
      const rows = await db
        .selectFrom('cameraPermissions')
        .leftJoin('knownUsers', 'knownUsers.id', 'cameraPermissions.userId')
        .select(['cameraPermissions.userId', 'knownUsers.userName', 'knownUsers.email'])
        .where('cameraPermissions.webcamId', '=', webcamId)
        .orderBy('knownUsers.userName')
        .execute();
      return rows.map((row) => userRef(row) as UserRef);
    },

    async setPermittedUsers(webcamId: number, userIds: string[]): Promise<void> {
      await inTransaction(db, async (trx) => {
        await trx.deleteFrom('cameraPermissions').where('webcamId', '=', webcamId).execute();
        if (userIds.length) {
          await trx
            .insertInto('cameraPermissions')
            .values([...new Set(userIds)].map((userId) => ({ webcamId, userId })))
            .execute();
        }
        await announceAccess(trx, webcamId);
      });
    },

    /** Cameras a user may configure for their pages (Admin: every camera). */
    async permittedCameraIds(userId: string): Promise<number[]> {
      const rows = await db.selectFrom('cameraPermissions').select('webcamId').where('userId', '=', userId).execute();
      return rows.map((r) => r.webcamId);
    },

    async configurations(webcamId: number): Promise<CameraConfiguration[]> {
      const rows = await db
        .selectFrom('cameraConfigurations')
        .innerJoin('webcams', 'webcams.id', 'cameraConfigurations.webcamId')
        .leftJoin('knownUsers', 'knownUsers.id', 'cameraConfigurations.userId')
        .select([
          'cameraConfigurations.id',
          'cameraConfigurations.userId',
          'cameraConfigurations.quality',
          'knownUsers.userName',
          'knownUsers.email',
          'webcams.id as webcamId',
          'webcams.name as webcamName',
        ])
        .where('cameraConfigurations.webcamId', '=', webcamId)
        .orderBy('cameraConfigurations.id')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        user: userRef(row),
        quality: row.quality,
        webcam: { id: row.webcamId, name: row.webcamName },
      }));
    },

    /** One configuration per user (or for all other users): a new quality replaces the old one. */
    async setConfiguration(webcamId: number, userId: string | null, quality: Quality): Promise<void> {
      await inTransaction(db, async (trx) => {
        const existing = await trx
          .selectFrom('cameraConfigurations')
          .select('id')
          .where('webcamId', '=', webcamId)
          .where((eb) => (userId ? eb('userId', '=', userId) : eb('userId', 'is', null)))
          .executeTakeFirst();
        if (existing)
          await trx.updateTable('cameraConfigurations').set({ quality }).where('id', '=', existing.id).execute();
        else await trx.insertInto('cameraConfigurations').values({ webcamId, userId, quality }).execute();
        await announceAccess(trx, webcamId);
      });
    },

    /** Returns the camera of the removed configuration, or undefined when there was none. */
    async removeConfiguration(id: number): Promise<number | undefined> {
      return inTransaction(db, async (trx) => {
        const removed = await trx
          .deleteFrom('cameraConfigurations')
          .where('id', '=', id)
          .returning('webcamId')
          .executeTakeFirst();
        if (removed) await announceAccess(trx, removed.webcamId);
        return removed?.webcamId;
      });
    },

    async bookings(webcamId: number): Promise<RefererBooking[]> {
      const rows = await db
        .selectFrom('refererBookings')
        .selectAll()
        .where('webcamId', '=', webcamId)
        .orderBy('startDay')
        .orderBy('id')
        .execute();
      return rows.map(({ startDay, endDay, url: _url, ...row }) => ({ ...row, start: startDay, end: endDay }));
    },

    async saveBooking(
      booking: Omit<RefererBooking, 'id'> & { id?: number | undefined; url: string | null },
    ): Promise<RefererBooking | undefined> {
      const values = {
        webcamId: booking.webcamId,
        startDay: booking.start,
        endDay: booking.end,
        quality: booking.quality,
        refererUserId: booking.refererUserId,
        refererUserText: booking.refererUserText,
        url: booking.url,
      };
      const row = await inTransaction(db, async (trx) => {
        const row = booking.id
          ? await trx
              .updateTable('refererBookings')
              .set(values)
              .where('id', '=', booking.id)
              .where('webcamId', '=', booking.webcamId)
              .returningAll()
              .executeTakeFirst()
          : await trx.insertInto('refererBookings').values(values).returningAll().executeTakeFirst();
        if (row) await announceAccess(trx, booking.webcamId);
        return row;
      });
      if (!row) return undefined;
      const { startDay, endDay, url: _url, ...rest } = row;
      return { ...rest, start: startDay, end: endDay };
    },

    async removeBooking(webcamId: number, id: number): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        const removed = await trx
          .deleteFrom('refererBookings')
          .where('id', '=', id)
          .where('webcamId', '=', webcamId)
          .executeTakeFirst();
        if (!removed.numDeletedRows) return false;
        await announceAccess(trx, webcamId);
        return true;
      });
    },

    /** Cameras booked for any of these referer users; all cameras when `refererUserIds` is null. */
    async bookedCameras(refererUserIds: number[] | null): Promise<Selectable<WebcamsTable>[]> {
      let query = db.selectFrom('webcams').selectAll().orderBy('name');
      if (refererUserIds !== null) {
        if (refererUserIds.length === 0) return [];
        query = query.where((eb) =>
          eb.exists(
            eb
              .selectFrom('refererBookings')
              .select('refererBookings.id')
              .whereRef('refererBookings.webcamId', '=', 'webcams.id')
              .where('refererBookings.refererUserId', 'in', refererUserIds),
          ),
        );
      }
      return query.execute();
    },
  };
}

export type AccessRepository = ReturnType<typeof createAccessRepository>;
