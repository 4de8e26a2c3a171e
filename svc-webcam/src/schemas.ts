import { IMAGE_NAME_PATTERN } from '@lakecams/contracts';
import { Type } from 'typebox';
import { PublicWebcamSchema } from './camera-presentation.ts';

// Cameras are answered only as camera-presentation.ts shows them.
export { PublicWebcamSchema, WebcamSchema } from './camera-presentation.ts';

export const ImageSchema = Type.Object({
  lat: Type.Number(),
  lng: Type.Number(),
  direction: Type.Number(),
  name: Type.String({ pattern: IMAGE_NAME_PATTERN }),
  webcamId: Type.Integer(),
});

export const CameraListItemSchema = Type.Object({
  webcam: PublicWebcamSchema,
  images: Type.Array(Type.Union([ImageSchema, Type.Null()])),
});

export { ErrorSchema } from '@lakecams/service-kit';
