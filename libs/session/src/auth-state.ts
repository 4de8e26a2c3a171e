import { type RefererUser, ROLES, type User, type UserSummary } from '@lakecams/contracts';

/** A page of the acting user that embeds camera images (GET /api/Referer/GetRefererOfUser/ofUser). */
export type RefererOfUser = RefererUser;

/** What the page knows of the session. The refresh token is an httpOnly cookie and never reaches script. */
export interface AuthState {
  /** The logged-in user with its access token; null while anonymous. */
  user: User | null;
  /** The user acted as: the logged-in user itself, or the user an admin impersonates. */
  applicationUser: UserSummary | null;
  /** Roles of the acting user, from the roles call. */
  roles: readonly string[];
  isAdmin: boolean;
  hasReferes: boolean;
  referers: readonly RefererOfUser[];
}

export const EMPTY_AUTH_STATE: AuthState = Object.freeze({
  user: null,
  applicationUser: null,
  roles: Object.freeze([]),
  isAdmin: false,
  hasReferes: false,
  referers: Object.freeze([]),
});

/** The id to send in the `Impersonate` header, or null when the caller acts as themself. */
export function impersonatedUserId(state: AuthState): string | null {
  const acting = state.applicationUser?.id;
  if (!state.user || !acting || acting === state.user.id) return null;
  return acting;
}

/**
 * The roles-and-referers part of the state: isAdmin with the Admin role, hasReferes with at least one referer
 * (docs/product.md §8.2).
 */
export function accessState(
  roles: readonly string[],
  referers: readonly RefererOfUser[],
): Pick<AuthState, 'roles' | 'isAdmin' | 'hasReferes' | 'referers'> {
  return { roles, isAdmin: roles.includes(ROLES.admin), hasReferes: referers.length > 0, referers };
}

/** The user record without its token and roles: what the acting user is. */
export function summaryOf(user: UserSummary): UserSummary {
  const { id, email, firstName, lastName, userName, phoneNumber, emailConfirmed } = user;
  return { id, email, firstName, lastName, userName, phoneNumber, emailConfirmed };
}
