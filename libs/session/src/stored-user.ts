import type { User } from '@lakecams/contracts';

/** Spec §4: the user record is kept in local storage and restored on load. */
export const STORED_USER_KEY = 'lakecams.user';

export type UserStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function isStoredUser(value: unknown): value is User {
  const user = value as Partial<User> | null;
  return typeof user === 'object' && user !== null && typeof user.id === 'string' && typeof user.jwtToken === 'string';
}

export function parseStoredUser(text: string | null): User | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return isStoredUser(value) ? value : null;
  } catch {
    return null;
  }
}

export function readStoredUser(storage: UserStorage | null): User | null {
  try {
    return parseStoredUser(storage?.getItem(STORED_USER_KEY) ?? null);
  } catch {
    // Storage can be disabled by the browser; the session then lasts as long as the page.
    return null;
  }
}

export function writeStoredUser(storage: UserStorage | null, user: User | null): void {
  try {
    if (user) storage?.setItem(STORED_USER_KEY, JSON.stringify(user));
    else storage?.removeItem(STORED_USER_KEY);
  } catch {
    // See readStoredUser.
  }
}

/** The page's local storage, or null where there is none or it is blocked. */
export function defaultUserStorage(): UserStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
