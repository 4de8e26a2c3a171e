import { IMAGE_NAME_PATTERN, WEBCAM_TYPES } from '@lakecams/contracts';
import { Type } from 'typebox';

export const WebcamSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  pattern: Type.String(),
  distance: Type.Number(),
  angle: Type.Integer(),
  intervalMin: Type.Integer(),
  webcamType: Type.Enum([...WEBCAM_TYPES]),
});

export const ImageSchema = Type.Object({
  lat: Type.Number(),
  lng: Type.Number(),
  direction: Type.Number(),
  name: Type.String({ pattern: IMAGE_NAME_PATTERN }),
  webcamId: Type.Integer(),
});

export const CameraListItemSchema = Type.Object({
  webcam: WebcamSchema,
  images: Type.Array(Type.Union([ImageSchema, Type.Null()])),
});

export { ErrorSchema } from '@lakecams/service-kit';
