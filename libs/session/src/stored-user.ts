import type { User, UserSummary } from '@lakecams/contracts';

/** Where the user record is kept in local storage, restored on load so a reload keeps the user signed in. */
export const STORED_USER_KEY = 'lakecams.user';
/**
 * The user an Admin acts as, kept beside the user record until the Admin ends it (reloads keep it;
 * docs/product.md §8.5).
 */
export const STORED_ACTING_USER_KEY = 'lakecams.actingUser';

export type UserStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function isStoredUser(value: unknown): value is User {
  const user = value as Partial<User> | null;
  return typeof user === 'object' && user !== null && typeof user.id === 'string' && typeof user.jwtToken === 'string';
}

function isUserSummary(value: unknown): value is UserSummary {
  const user = value as Partial<UserSummary> | null;
  return typeof user === 'object' && user !== null && typeof user.id === 'string' && typeof user.userName === 'string';
}

function parseItem<T>(text: string | null, isValid: (value: unknown) => value is T): T | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return isValid(value) ? value : null;
  } catch {
    return null;
  }
}

function readItem<T>(storage: UserStorage | null, key: string, isValid: (value: unknown) => value is T): T | null {
  try {
    return parseItem(storage?.getItem(key) ?? null, isValid);
  } catch {
    // Storage can be disabled by the browser; the session then lasts as long as the page.
    return null;
  }
}

function writeItem(storage: UserStorage | null, key: string, value: unknown): void {
  try {
    if (value) storage?.setItem(key, JSON.stringify(value));
    else storage?.removeItem(key);
  } catch {
    // See readItem.
  }
}

export const parseStoredUser = (text: string | null): User | null => parseItem(text, isStoredUser);
export const readStoredUser = (storage: UserStorage | null): User | null =>
  readItem(storage, STORED_USER_KEY, isStoredUser);
export const writeStoredUser = (storage: UserStorage | null, user: User | null): void =>
  writeItem(storage, STORED_USER_KEY, user);

export const parseStoredActingUser = (text: string | null): UserSummary | null => parseItem(text, isUserSummary);
export const readStoredActingUser = (storage: UserStorage | null): UserSummary | null =>
  readItem(storage, STORED_ACTING_USER_KEY, isUserSummary);
export const writeStoredActingUser = (storage: UserStorage | null, user: UserSummary | null): void =>
  writeItem(storage, STORED_ACTING_USER_KEY, user);

/** The page's local storage, or null where there is none or it is blocked. */
export function defaultUserStorage(): UserStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
