import { Type } from 'typebox';

export const ErrorSchema = Type.Object({ statusCode: Type.Integer(), error: Type.String(), message: Type.String() });
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
/** Boolean results travel as the text `true` / `false` (spec §7). */
export const BooleanText = Type.String({ enum: ['true', 'false'] });
export const Uuid = Type.String({ format: 'uuid' });
export const errors = {
  400: ErrorSchema,
  401: ErrorSchema,
  403: ErrorSchema,
  404: ErrorSchema,
  429: ErrorSchema,
} as const;
