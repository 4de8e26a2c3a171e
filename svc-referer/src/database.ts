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

export interface Database {
  refererUsers: RefererUsersTable;
  knownUsers: KnownUsersTable;
}

export type RefererUserRow = Selectable<RefererUsersTable>;
