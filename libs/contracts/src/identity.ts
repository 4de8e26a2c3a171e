/** The shapes of users, roles and the account calls on the API. User ids are UUIDs. */

export const ROLES = { admin: 'Admin', referer: 'Referer', premium: 'Premium' } as const;
/** Roles a feature code may grant; Admin is never one of them. */
export const CODE_FEATURES = [ROLES.premium, ROLES.referer] as const;

/** A user as listed to administrators (AllUsers, impersonate page). */
export interface UserSummary {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  userName: string;
  phoneNumber: string;
  emailConfirmed: boolean;
}

/** The user as returned by Authenticate and RefreshToken; the refresh token travels only as a cookie. */
export interface User extends UserSummary {
  jwtToken: string;
  roles: string[];
}

export interface Credentials {
  username: string;
  password: string;
}

export interface RegisterModel {
  firstname: string;
  lastname: string;
  email: string;
  username: string;
  password: string;
  passwordConfirm: string;
  phoneNumber: string;
}

export interface ProfileUpdate {
  firstName: string;
  lastName: string;
  phoneNumber: string;
}

export interface ResetPasswordModel {
  email: string;
  username: string;
  password: string;
  passwordConfirm: string;
  /** The reset code from the recover-password mail. */
  token: string;
}

export interface ContactModel {
  mail: string;
  name: string;
  phone: string;
  message: string;
  subject: string;
}

/** A feature code assigned to a user. */
export interface CodeAssignment {
  id: string;
  userId: string;
  userName: string;
  code: string;
  /** What the code unlocks: the role it grants. */
  feature: string;
  assignedAt: string;
}

/** A code assignment as administrators list it (GetAllCodes): with its owner's email. */
export interface OwnedCodeAssignment extends CodeAssignment {
  email: string;
}

export const CAPTCHA_ACTIONS = ['register', 'contact'] as const;
export type CaptchaAction = (typeof CAPTCHA_ACTIONS)[number];

/** A referer user: a page (url) of a user that embeds camera images. */
export interface RefererUser {
  id: number;
  userEmail: string;
  url: string;
}

/** Header naming the user an Admin acts as (honoured only for verified Admins). */
export const IMPERSONATE_HEADER = 'Impersonate';

/**
 * Name of the anti-forgery cookie and header (signed double submit, checked by the gateway): the cookie holds
 * a token signed for the browser's anti-forgery session, which the httpOnly session cookie names.
 */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';
export const ANTI_FORGERY_SESSION_COOKIE = 'lakecams_sid';
/** Over https the gateway's cookies carry this prefix: a sibling subdomain cannot set or replace them. */
export const HOST_COOKIE_PREFIX = '__Host-';
/** Where the page finds the anti-forgery token: the https name first. */
export const XSRF_COOKIE_NAMES = [`${HOST_COOKIE_PREFIX}${XSRF_COOKIE}`, XSRF_COOKIE] as const;
/** The refresh token cookie (httpOnly, SameSite=Strict). */
export const REFRESH_COOKIE = 'refreshToken';
/**
 * The access token again as an httpOnly cookie, for requests that cannot carry a header: pictures in
 * `<img>` and the job dashboard. Accepted only on routes that opt in, all of them read-only.
 */
export const ACCESS_COOKIE = 'lakecams_access';
/**
 * The user an Admin acts as, for the same cookie-authenticated requests (pictures): set and cleared by the
 * page's session, honoured only together with a verified Admin access cookie.
 */
export const IMPERSONATE_COOKIE = 'lakecams_impersonate';
