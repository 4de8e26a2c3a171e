import type { Quality, WebcamType } from '@lakecams/contracts';
import type { Generated, Insertable, Selectable } from 'kysely';

export interface WebcamsTable {
  id: Generated<number>;
  name: string;
  pattern: string;
  distance: number;
  angle: number;
  intervalMin: number;
  webcamType: WebcamType;
}

/** Metadata of captured images (position at capture time), kept per camera; the blobs live in svc-imaging. */
export interface WebcamImagesTable {
  webcamId: number;
  name: string;
  lat: number;
  lng: number;
  direction: number;
  /** svc-imaging's quality score, 0–100; null for pictures captured before scoring. */
  score: number | null;
  /** The same bytes as the camera's picture before it (svc-imaging says so); false for older pictures. */
  frozen: Generated<boolean>;
}

/** An admin's choice of a camera's best picture of a day (`yyyyMMdd`), over the highest score. */
export interface BestOfChoicesTable {
  webcamId: number;
  day: string;
  name: string;
}

export interface NewsTable {
  id: number;
  text: string;
}

export interface KnownUsersTable {
  id: string;
  userName: string;
  email: string;
  emailConfirmed: boolean;
}

export interface CameraPermissionsTable {
  webcamId: number;
  userId: string;
}

export interface CameraConfigurationsTable {
  id: Generated<number>;
  webcamId: number;
  /** null: the quality for all other users. */
  userId: string | null;
  quality: Quality;
}

export interface RefererBookingsTable {
  id: Generated<number>;
  webcamId: number;
  /** Whole days, `YYYY-MM-DD`. */
  startDay: string;
  endDay: string;
  quality: Quality;
  refererUserId: number | null;
  refererUserText: string | null;
  /** The referer user's page, copied when the booking is saved (image delivery matches it). */
  url: string | null;
}

export interface Database {
  webcams: WebcamsTable;
  webcamImages: WebcamImagesTable;
  bestOfChoices: BestOfChoicesTable;
  news: NewsTable;
  knownUsers: KnownUsersTable;
  cameraPermissions: CameraPermissionsTable;
  cameraConfigurations: CameraConfigurationsTable;
  refererBookings: RefererBookingsTable;
}

export type WebcamRow = Selectable<WebcamsTable>;
export type NewWebcam = Insertable<WebcamsTable>;
export type WebcamImageRow = Selectable<WebcamImagesTable>;
