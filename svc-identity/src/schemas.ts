import { Type } from 'typebox';

import { ErrorSchema, mediaResponse } from '@lakecams/service-kit';

export { ErrorSchema };
export const UserSummarySchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  userName: Type.String(),
  phoneNumber: Type.String(),
  emailConfirmed: Type.Boolean(),
});
export const UserSchema = Type.Object({
  ...UserSummarySchema.properties,
  jwtToken: Type.String(),
  roles: Type.Array(Type.String()),
});
export const RolesSchema = Type.Array(Type.String());
export const Uuid = Type.String({ format: 'uuid' });
/** The solved captcha of a form (an ALTCHA payload or a reCAPTCHA token). */
export const CaptchaQuery = Type.Object({ captcha: Type.String({ maxLength: 8192 }) });
export const errors = {
  400: ErrorSchema,
  401: ErrorSchema,
  403: ErrorSchema,
  404: ErrorSchema,
  429: ErrorSchema,
} as const;
/** The empty answer of a call whose result is its effect (LogOut, Contact): no JSON, an empty octet stream. */
export const NOTHING = mediaResponse('Done; the body is empty', ['application/octet-stream'], {
  type: 'string',
  maxLength: 0,
});
