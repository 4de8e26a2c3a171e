import { inTransaction } from '@lakecams/service-kit';
import type { ColumnType, Generated, Kysely, Selectable, Transaction } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface UsersTable {
  id: Generated<string>;
  userName: string;
  email: string;
  firstName: string;
  lastName: string;
  phoneNumber: string;
  emailConfirmed: Generated<boolean>;
  passwordHash: string;
  createdAt: Generated<Date>;
}

export interface UserRolesTable {
  userId: string;
  role: string;
}

export interface RefreshTokensTable {
  id: Generated<string>;
  userId: string;
  familyId: string;
  tokenHash: string;
  expiresAt: Timestamp;
  createdAt: Generated<Date>;
  rotatedAt: Date | null;
  revokedAt: Date | null;
}

export interface EmailConfirmationsTable {
  userId: string;
  tokenHash: string;
  expiresAt: Timestamp;
}

export interface PasswordResetsTable {
  userId: string;
  codeHash: string;
  expiresAt: Timestamp;
  failedAttempts: Generated<number>;
}

export interface CodesTable {
  id: Generated<string>;
  code: string;
  feature: string;
  createdAt: Generated<Date>;
}

export interface CodeAssignmentsTable {
  id: Generated<string>;
  codeId: string;
  userId: string;
  assignedAt: Generated<Date>;
}

export interface UsedCaptchasTable {
  signature: string;
  expiresAt: Timestamp;
}

export interface RevokedAccessTable {
  /** A token id (`jti`) or a session id (`sid`, the refresh token family). */
  id: string;
  expiresAt: Timestamp;
}

/** Events acted on (see `consumeOnce`). */
export interface HandledEventsTable {
  id: string;
  handledAt: Generated<Date>;
}

export interface Database {
  users: UsersTable;
  userRoles: UserRolesTable;
  refreshTokens: RefreshTokensTable;
  emailConfirmations: EmailConfirmationsTable;
  passwordResets: PasswordResetsTable;
  codes: CodesTable;
  codeAssignments: CodeAssignmentsTable;
  usedCaptchas: UsedCaptchasTable;
  revokedAccess: RevokedAccessTable;
  handledEvents: HandledEventsTable;
}

export type UserRow = Selectable<UsersTable>;

/** A repository that can also run on one transaction: a change and the events announcing it commit together. */
export type Transactional<R> = R & {
  /** Run `work` with the repository on one transaction (`trx` for `publishEvent`). */
  transaction<T>(work: (repository: R, trx: Transaction<Database>) => Promise<T>): Promise<T>;
};

/** The repository `create` makes on `db`, with `transaction`. */
export function transactional<R>(db: Kysely<Database>, create: (db: Kysely<Database>) => R): Transactional<R> {
  return { ...create(db), transaction: (work) => inTransaction(db, (trx) => work(create(trx), trx)) };
}
