import type { Image } from '@lakecams/contracts';
import { CaptureFailed, ImageCaptured, type PayloadOf } from '@lakecams/contracts/messages';
import { publishEvent } from '@lakecams/service-kit';
import type { Kysely, Transaction } from 'kysely';
import { withoutUrlLogins } from '../capture/camera-login.ts';
import type { Database } from '../database.ts';
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
 * Claims on the `captures` table: each row is a camera's tick, claimed by one replica (heartbeat, takeover),
 * then done (with its picture's facts) or failed. Events that announce the outcome are written in its transaction.
 */
export function createCaptureClaimRepository(db: Kysely<Database>) {
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
  };
}

export type CaptureClaimRepository = ReturnType<typeof createCaptureClaimRepository>;
