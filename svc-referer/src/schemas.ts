import { LAYER_LEVELS } from '@lakecams/contracts';
import { Type } from 'typebox';

export { ErrorSchema } from '@lakecams/service-kit';

/** A referer user: a user's page that embeds camera images. */
export const RefererUserSchema = Type.Object({ id: Type.Integer(), userEmail: Type.String(), url: Type.String() });

export const LayerLevelSchema = Type.Enum([...LAYER_LEVELS]);

/** A layer as answered: its page's url, never whose page it is or its image's hash. */
export const LayerSchema = Type.Object({
  id: Type.Integer(),
  level: LayerLevelSchema,
  cron: Type.String(),
  enabled: Type.Boolean(),
  url: Type.String(),
  cameraId: Type.Integer(),
});

// svc-webcam answers cameras as the public sees them; the serializer writes an empty source URL regardless.
export const WebcamSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  pattern: Type.Literal(''),
  distance: Type.Number(),
  angle: Type.Number(),
  intervalMin: Type.Integer(),
  webcamType: Type.String(),
});
