import type { Image } from '@lakecams/contracts';
import { CaptureFailed, ImageCaptured, ImagesThinned, type PayloadOf } from '@lakecams/contracts/messages';
import { publishEvent } from '@lakecams/service-kit';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { CameraRow, Database } from '../database.ts';
import { withoutUrlLogins } from '../capture/camera-login.ts';

/** One replica's claim on a camera's tick (`name` is the tick as `yyyyMMddHHmm`). */
export interface CaptureClaim {
  webcamId: number;
  name: string;
  replicaId: string;
}

/** What a finished capture records about its picture. */
export interface CaptureRecord {
  durationMs: number;
  width: number;
  height: number;
  bytes: number;
  contentHash: string;
  score: number | null;
  fingerprint: Buffer | null;
  lat: number | null;
  lng: number | null;
  direction: number | null;
}

/** A picture announced to svc-webcam with its quality score and whether it is frozen. */
export type CapturedImage = PayloadOf<typeof ImageCaptured>;

/** Tell svc-webcam about a stored image, with its row; it tells open pages once its list shows it. */
export async function announceImage(trx: Transaction<Database>, image: CapturedImage): Promise<void> {
  await publishEvent(trx, ImageCaptured, image);
}

/**
 * The `captures` table: each row is a camera's tick, claimed by one replica, then done (with its picture's
 * facts) or failed. Events that announce a change are written in its transaction.
 */
export function createCaptureRepository(db: Kysely<Database>) {
  const done = (webcamId: number) =>
    db.selectFrom('captures').where('webcamId', '=', webcamId).where('status', '=', 'done');
  const mine = (claim: CaptureClaim, executor: Kysely<Database> = db) =>
    executor
      .updateTable('captures')
      .where('webcamId', '=', claim.webcamId)
      .where('name', '=', claim.name)
      .where('claimedBy', '=', claim.replicaId);

  return {
    /**
     * Inserting the tick's row is the claim: however many replicas run, only the one whose insert succeeds
     * captures it. An upload by hand takes the minute over, unless a capture of it is still running.
     */
    async claim(claim: CaptureClaim, attempt: number, takeOver: boolean, startedAt = new Date()): Promise<boolean> {
      // The heartbeat stays on the real clock: other replicas compare it with theirs to take a claim over.
      const row = {
        status: 'running',
        attempt,
        claimedBy: claim.replicaId,
        startedAt,
        heartbeatAt: new Date(),
      } as const;
      const claimed = await db
        .insertInto('captures')
        .values({ webcamId: claim.webcamId, name: claim.name, ...row })
        .onConflict((oc) =>
          takeOver
            ? oc
                .columns(['webcamId', 'name'])
                .doUpdateSet({ ...row, error: null })
                .where('captures.status', '!=', 'running')
            : oc.columns(['webcamId', 'name']).doNothing(),
        )
        .executeTakeFirst();
      return Boolean(claimed.numInsertedOrUpdatedRows);
    },

    /** Claims whose heartbeat stopped, taken over by `replicaId` (a conditional update: one replica wins each). */
    takeOverStale: (replicaId: string, staleAfterMs: number) =>
      db
        .updateTable('captures')
        .set((eb) => ({ claimedBy: replicaId, attempt: eb('attempt', '+', 1), heartbeatAt: new Date() }))
        .where('status', '=', 'running')
        .where('heartbeatAt', '<', new Date(Date.now() - staleAfterMs))
        .returning(['webcamId', 'name', 'startedAt'])
        .execute(),

    async abandon(webcamId: number, name: string): Promise<void> {
      await db
        .updateTable('captures')
        .set({ status: 'failed', error: 'Abandoned by a stopped replica' })
        .where('webcamId', '=', webcamId)
        .where('name', '=', name)
        .execute();
    },

    async heartbeat(claim: CaptureClaim): Promise<void> {
      await mine(claim).set({ heartbeatAt: new Date() }).where('status', '=', 'running').execute();
    },

    /**
     * Record the picture and announce it together (`frozen`: the same bytes as the previous capture); false
     * when another replica took the claim over meanwhile.
     */
    recordDone: (claim: CaptureClaim, record: CaptureRecord, image: Image, frozen: boolean): Promise<boolean> =>
      db.transaction().execute(async (trx) => {
        const finished = await mine(claim, trx)
          .set({ status: 'done', ...record })
          .executeTakeFirst();
        if (!finished.numUpdatedRows) return false;
        await announceImage(trx, { ...image, score: record.score, frozen });
        return true;
      }),

    recordFailed: (claim: CaptureClaim, durationMs: number, reason: string): Promise<void> =>
      db.transaction().execute(async (trx) => {
        // The record and its event are read by admins and other services: no camera login in them.
        const error = withoutUrlLogins(reason);
        await mine(claim, trx).set({ status: 'failed', durationMs, error }).execute();
        await publishEvent(trx, CaptureFailed, { webcamId: claim.webcamId, name: claim.name, error });
      }),

    /** The latest stored capture before `name`: what a new picture is compared with. */
    previous: (webcamId: number, name: string) =>
      done(webcamId)
        .select(['contentHash', 'fingerprint'])
        .where('name', '<', name)
        .orderBy('name', 'desc')
        .limit(1)
        .executeTakeFirst(),

    latest: (webcamId: number) =>
      done(webcamId)
        .select(['name', 'width', 'height', 'contentHash'])
        .orderBy('name', 'desc')
        .limit(1)
        .executeTakeFirst(),

    /** The camera's latest two stored captures, newest first (the offline rule). */
    latestTwo: (webcamId: number) =>
      done(webcamId).select(['contentHash', 'startedAt']).orderBy('name', 'desc').limit(2).execute(),

    named: (webcamId: number, name: string) =>
      done(webcamId).select(['name', 'width', 'contentHash']).where('name', '=', name).executeTakeFirst(),

    async hasAny(webcamId: number): Promise<boolean> {
      const any = await db
        .selectFrom('captures')
        .select('name')
        .where('webcamId', '=', webcamId)
        .limit(1)
        .executeTakeFirst();
      return any !== undefined;
    },

    /** The names of a day's stored captures, oldest first. */
    async namesOfDay(webcamId: number, day: string): Promise<string[]> {
      const rows = await done(webcamId)
        .select('name')
        .where('name', '>=', `${day}0000`)
        .where('name', '<=', `${day}2359`)
        .orderBy('name')
        .execute();
      return rows.map((row) => row.name);
    },

    /** A day's stored pictures with their scores (the archive tiers choose among them). */
    picturesOfDay: (webcamId: number, day: string) =>
      done(webcamId)
        .select(['webcamId', 'name', 'score'])
        .where('name', '>=', `${day}0000`)
        .where('name', '<=', `${day}2359`)
        .execute(),

    /**
     * The camera stands at `position` from the minute `from` on: the camera's row and every stored picture
     * from then change together, and each changed picture is announced again. Undefined for an unknown camera.
     */
    movePosition: (
      webcamId: number,
      from: string,
      position: { lat: number; lng: number; direction: number },
      imageOf: (camera: CameraRow, name: string) => Image,
    ): Promise<CameraRow | undefined> =>
      db.transaction().execute(async (trx) => {
        const camera = await trx
          .updateTable('cameras')
          .set(position)
          .where('webcamId', '=', webcamId)
          .returningAll()
          .executeTakeFirst();
        if (!camera) return undefined;
        const updated = await trx
          .updateTable('captures')
          .set(position)
          .where('webcamId', '=', webcamId)
          .where('name', '>=', from)
          .where('status', '=', 'done')
          .returning('name')
          .execute();
        for (const { name } of updated) await announceImage(trx, imageOf(camera, name));
        return camera;
      }),

    /** Failed captures before `name` left no picture: no history worth keeping. */
    async deleteFailedBefore(name: string): Promise<number> {
      const failed = await db
        .deleteFrom('captures')
        .where('name', '<', name)
        .where('status', '!=', 'done')
        .executeTakeFirst();
      return Number(failed.numDeletedRows);
    },

    /** Camera-days before `allFrom` with two pictures in one hour, or (before `hourlyFrom`) two at all. */
    daysToThin(allFrom: string, hourlyFrom: string) {
      const day = sql<string>`left(name, 8)`;
      return db
        .selectFrom('captures')
        .select(['webcamId', day.as('day')])
        .where('status', '=', 'done')
        .where('name', '<', `${allFrom}0000`)
        .groupBy(['webcamId', day])
        .having((eb) =>
          eb.or([
            eb(eb.fn.countAll(), '>', sql<number>`count(distinct left(name, 10))`),
            eb.and([eb(day, '<', hourlyFrom), eb(eb.fn.countAll(), '>', 1)]),
          ]),
        )
        .execute();
    },

    /**
     * Remove `remove` of a camera-day and announce what is kept, in one transaction; `removeFiles` runs inside
     * it, so when files cannot go the rows stay.
     */
    thinDay: (
      plan: { webcamId: number; day: string; keep: string[]; remove: string[] },
      removeFiles: (cameraName: string) => Promise<void>,
    ): Promise<number> =>
      db.transaction().execute(async (trx) => {
        const removed = await trx
          .deleteFrom('captures')
          .where('webcamId', '=', plan.webcamId)
          .where('name', 'in', plan.remove)
          .executeTakeFirst();
        const camera = await trx
          .selectFrom('cameras')
          .select('name')
          .where('webcamId', '=', plan.webcamId)
          .executeTakeFirst();
        if (camera) await removeFiles(camera.name);
        await publishEvent(trx, ImagesThinned, { webcamId: plan.webcamId, day: plan.day, keep: plan.keep });
        return Number(removed.numDeletedRows);
      }),

    /** Each camera with its latest two stored captures (newest first), through the partial index. */
    camerasWithLatestTwo: () =>
      db
        .selectFrom('cameras')
        .leftJoinLateral(
          (eb) =>
            eb
              .selectFrom('captures')
              .select(['captures.name as captureName', 'captures.contentHash', 'captures.startedAt'])
              .whereRef('captures.webcamId', '=', 'cameras.webcamId')
              .where('captures.status', '=', 'done')
              .orderBy('captures.name', 'desc')
              .limit(2)
              .as('latest'),
          (join) => join.onTrue(),
        )
        .select([
          'cameras.webcamId',
          'cameras.name',
          'cameras.intervalMin',
          'cameras.paused',
          'latest.contentHash',
          'latest.startedAt',
        ])
        .orderBy('cameras.webcamId')
        .orderBy('latest.captureName', 'desc')
        .execute(),

    /** The latest failed captures with their camera's name, newest first: the job dashboard. */
    recentFailures: (limit: number) =>
      db
        .selectFrom('captures')
        .innerJoin('cameras', 'cameras.webcamId', 'captures.webcamId')
        .select([
          'cameras.name as camera',
          'captures.name as tick',
          'captures.startedAt',
          'captures.error',
          'captures.attempt',
        ])
        .where('captures.status', '=', 'failed')
        .orderBy('captures.startedAt', 'desc')
        .limit(limit)
        .execute(),

    /**
     * Forget a failed attempt at the camera's capture since `since`, so that the next attempt can claim the
     * minute; resolves its attempt number, 0 when there was none.
     */
    async dropFailedAttempt(webcamId: number, since: Date): Promise<number> {
      const failed = await db
        .deleteFrom('captures')
        .where('webcamId', '=', webcamId)
        .where('status', '=', 'failed')
        .where('startedAt', '>=', since)
        .returning('attempt')
        .executeTakeFirst();
      return failed?.attempt ?? 0;
    },

    /** Each camera's latest capture (the newest tick), by camera id: the job dashboard. */
    async lastRuns() {
      const runs = await db
        .selectFrom('captures')
        .select(['webcamId', 'name', 'status', 'startedAt', 'durationMs', 'error', 'attempt', 'claimedBy'])
        .distinctOn('webcamId')
        .orderBy('webcamId')
        .orderBy('name', 'desc')
        .execute();
      return new Map(runs.map((run) => [run.webcamId, run]));
    },
  };
}

export type CaptureRepository = ReturnType<typeof createCaptureRepository>;
