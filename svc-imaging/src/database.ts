import type { CameraSourceKind, LayerLevel, Quality, StreamTransport } from '@lakecams/contracts';
import type { ColumnType, Generated, Selectable } from 'kysely';

export interface CamerasTable {
  webcamId: number;
  name: string;
  pattern: string;
  intervalMin: number;
  lat: number | null;
  lng: number | null;
  direction: number | null;
  paused: Generated<boolean>;
}

/** How a camera's pictures arrive, with its login (password sealed) and its push accounts (hashes only). */
export interface CameraSourcesTable {
  webcamId: number;
  kind: Generated<CameraSourceKind>;
  loginUser: Generated<string>;
  loginPasswordSealed: string | null;
  transport: Generated<StreamTransport>;
  ftpUser: string | null;
  ftpPasswordHash: string | null;
  pushSecretHash: string | null;
  lastUploadName: string | null;
  lastUploadAt: Date | null;
  lastUploadVia: 'ftp' | 'push' | null;
  updatedAt: Generated<Date>;
}

export type CaptureStatus = 'running' | 'done' | 'failed';

export interface CapturesTable {
  webcamId: number;
  /** Tick timestamp `yyyyMMddHHmm`. */
  name: string;
  status: CaptureStatus;
  attempt: Generated<number>;
  claimedBy: string;
  startedAt: ColumnType<Date, Date | undefined, Date>;
  /** Renewed while the capture runs; a stale one marks a claim of a stopped replica. */
  heartbeatAt: ColumnType<Date, Date | undefined, Date>;
  durationMs: number | null;
  error: string | null;
  width: number | null;
  height: number | null;
  bytes: number | null;
  contentHash: string | null;
  /** Quality score 0–100 (capture/score.ts); 0 for a frozen picture. */
  score: number | null;
  /** 16×9 greyscale of the picture, compared with the next capture's. */
  fingerprint: Buffer | null;
  lat: number | null;
  lng: number | null;
  direction: number | null;
}

export interface JobRunsTable {
  id: Generated<number>;
  job: string;
  tick: string;
  status: CaptureStatus;
  claimedBy: string;
  startedAt: ColumnType<Date, Date | undefined, Date>;
  durationMs: number | null;
  error: string | null;
  detail: unknown;
}

export interface CameraAccessTable {
  webcamId: number;
  configurations: ColumnType<AccessConfiguration[], string, string>;
  bookings: ColumnType<AccessBooking[], string, string>;
  permittedUserIds: ColumnType<string[], string, string>;
}

export interface AccessConfiguration {
  userId: string | null;
  quality: Quality;
}

export interface AccessBooking {
  url: string;
  /** Whole days `YYYY-MM-DD`, both included. */
  start: string;
  end: string;
  quality: Quality;
}

/** A referer page's overlay on a camera (projection of svc-referer's layers, image included). */
export interface LayersTable {
  id: number;
  url: string;
  cameraId: number;
  level: LayerLevel;
  cron: string;
  enabled: boolean;
  image: Buffer;
  imageHash: string;
}

export type TimelapseLevel = Extract<Quality, 'POOR' | 'LOW' | 'MEDIUM'>;

/** One day's time-lapse clip of a camera at one level; the row is the job's claim and progress. */
export interface TimelapsesTable {
  webcamId: number;
  /** `yyyyMMdd` in the region's time. */
  day: string;
  level: TimelapseLevel;
  status: CaptureStatus;
  claimedBy: string;
  startedAt: ColumnType<Date, Date | undefined, Date>;
  heartbeatAt: ColumnType<Date, Date | undefined, Date>;
  finishedAt: Date | null;
  durationMs: number | null;
  frames: Generated<number>;
  framesDone: Generated<number>;
  bytes: number | null;
  width: number | null;
  /** Made after the day ended: never made again. */
  complete: Generated<boolean>;
  error: string | null;
}

/** Per camera the health state the operator was last told of: changed by a conditional update, one replica mails. */
export interface CameraHealthNoticesTable {
  webcamId: number;
  state: 'ok' | 'offline';
  changedAt: Date;
}

/** The admins' best picture of a camera's day (`yyyyMMdd`), as svc-webcam announced it. */
export interface BestOfChoicesTable {
  webcamId: number;
  day: string;
  name: string;
}

/** How often a booked page (its booking's url) showed the embedded player on a day (`YYYY-MM-DD`). */
export interface EmbedViewsTable {
  webcamId: number;
  page: string;
  day: string;
  views: number;
}

export interface Database {
  bestOfChoices: BestOfChoicesTable;
  embedViews: EmbedViewsTable;
  layers: LayersTable;
  cameraAccess: CameraAccessTable;
  cameras: CamerasTable;
  cameraHealthNotices: CameraHealthNoticesTable;
  cameraSources: CameraSourcesTable;
  captures: CapturesTable;
  jobRuns: JobRunsTable;
  timelapses: TimelapsesTable;
}

export type CameraRow = Selectable<CamerasTable>;
export type CameraSourceRow = Selectable<CameraSourcesTable>;
export type CaptureRow = Selectable<CapturesTable>;
export type LayerRow = Selectable<LayersTable>;
export type TimelapseRow = Selectable<TimelapsesTable>;
