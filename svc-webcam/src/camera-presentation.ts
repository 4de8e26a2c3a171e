import { WEBCAM_TYPES, type Webcam } from '@lakecams/contracts';
import { ADMIN_ROLE, type Principal } from '@lakecams/service-kit';
import { type TSchema, Type } from 'typebox';

declare const presented: unique symbol;
/**
 * A camera as one caller may see it. Only `presentCamera` makes one, and every response schema that
 * carries a camera asks for one, so a route cannot answer with a stored camera as it is.
 */
export type PresentedCamera = Webcam & { readonly [presented]: true };

/**
 * A camera's source URL (`pattern`) may carry the camera owner's credentials: only an Admin acting as
 * itself sees it (to edit the camera); everybody else, and every answer that is the same for everybody
 * (the public list, svc-referer's look-ups), gets the camera with an empty pattern.
 */
export function seesCameraSource(principal: Principal | null | undefined): boolean {
  return principal?.roles.includes(ADMIN_ROLE) === true && principal.actingUserId === principal.userId;
}

/** The camera as `principal` may see it; `null` for the public. Picks the Webcam fields, nothing else. */
export function presentCamera(camera: Webcam, principal: Principal | null | undefined): PresentedCamera {
  const { id, name, pattern, distance, angle, intervalMin, webcamType } = camera;
  const shown: Webcam = {
    id,
    name,
    pattern: seesCameraSource(principal) ? pattern : '',
    distance,
    angle,
    intervalMin,
    webcamType,
  };
  return shown as PresentedCamera;
}

const webcamFields = (pattern: TSchema) =>
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    pattern,
    distance: Type.Number(),
    angle: Type.Integer(),
    intervalMin: Type.Integer(),
    webcamType: Type.Enum([...WEBCAM_TYPES]),
  });

/** A camera in a response that depends on the caller (GetCameras, GetCameraById, GetReferersofUser). */
export const WebcamSchema = Type.Unsafe<PresentedCamera>(webcamFields(Type.String()));

/** A camera in an answer that is the same for everybody: the serializer writes `pattern: ""` whatever it holds. */
export const PublicWebcamSchema = Type.Unsafe<PresentedCamera>(webcamFields(Type.Literal('')));
