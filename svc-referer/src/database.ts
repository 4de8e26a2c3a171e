import type { LayerLevel } from '@lakecams/contracts';
import type { Generated, Selectable } from 'kysely';

export interface RefererUsersTable {
  id: Generated<number>;
  userId: string;
  userEmail: string;
  url: string;
}

export interface KnownUsersTable {
  id: string;
  userName: string;
  email: string;
  emailConfirmed: boolean;
}

/** Overlay images of a referer user's page on one camera; the image is a PNG. */
export interface LayersTable {
  id: Generated<number>;
  refererUserId: number;
  cameraId: number;
  level: LayerLevel;
  cron: string;
  enabled: boolean;
  image: Buffer;
  imageHash: string;
  updatedAt: Generated<Date>;
}

export interface Database {
  refererUsers: RefererUsersTable;
  knownUsers: KnownUsersTable;
  layers: LayersTable;
}

export type RefererUserRow = Selectable<RefererUsersTable>;
export type LayerRow = Selectable<LayersTable>;
