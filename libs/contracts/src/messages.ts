/**
 * The message catalogue: every subject on the bus, with its payload (and a request's reply) as a TypeBox
 * schema. Services publish, consume, ask and answer only through these definitions (`@lakecams/bus`'s typed
 * bus), and receivers validate what arrives against them (docs/architecture.md, "The bus").
 *
 * - event: durable (JetStream), written in the transaction of the change it announces (the outbox) and
 *   delivered at least once to each durable consumer;
 * - notice: live (core NATS), fire and forget; a missed notice costs staleness, never data;
 * - request: a look-up answered by one instance of the owning service.
 */
import { type Static, type TSchema, Type } from 'typebox';
import { LAYER_LEVELS, QUALITIES, WEBCAM_TYPES } from './domain.ts';

export interface EventDefinition<S extends string = string, P extends TSchema = TSchema> {
  readonly kind: 'event';
  readonly subject: S;
  readonly payload: P;
  readonly summary: string;
}

export interface NoticeDefinition<S extends string = string, P extends TSchema = TSchema> {
  readonly kind: 'notice';
  readonly subject: S;
  readonly payload: P;
  readonly summary: string;
}

export interface RequestDefinition<
  S extends string = string,
  P extends TSchema = TSchema,
  R extends TSchema = TSchema,
> {
  readonly kind: 'request';
  readonly subject: S;
  readonly payload: P;
  readonly reply: R;
  readonly summary: string;
}

export type MessageDefinition = EventDefinition | NoticeDefinition | RequestDefinition;
export type PayloadOf<M extends { payload: TSchema }> = Static<M['payload']>;
export type ReplyOf<M extends RequestDefinition> = Static<M['reply']>;

const event = <S extends string, P extends TSchema>(subject: S, payload: P, summary: string) =>
  ({ kind: 'event', subject, payload, summary }) as const satisfies EventDefinition<S, P>;
const notice = <S extends string, P extends TSchema>(subject: S, payload: P, summary: string) =>
  ({ kind: 'notice', subject, payload, summary }) as const satisfies NoticeDefinition<S, P>;
const request = <S extends string, P extends TSchema, R extends TSchema>(
  subject: S,
  payload: P,
  reply: R,
  summary: string,
) => ({ kind: 'request', subject, payload, reply, summary }) as const satisfies RequestDefinition<S, P, R>;

// Payload parts.
const WebcamId = Type.Integer({ minimum: 1 });
const Day = Type.String({ pattern: '^[0-9]{8}$' });
const ImageName = Type.String({ pattern: '^[0-9]{12}$' });
const QualitySchema = Type.Enum([...QUALITIES]);
const Position = Type.Object({ lat: Type.Number(), lng: Type.Number(), direction: Type.Number() });

export const WebcamSchema = Type.Object({
  id: WebcamId,
  name: Type.String(),
  pattern: Type.String(),
  distance: Type.Number(),
  angle: Type.Number(),
  intervalMin: Type.Integer(),
  webcamType: Type.Enum([...WEBCAM_TYPES]),
});
export const ImageSchema = Type.Object({
  lat: Type.Number(),
  lng: Type.Number(),
  direction: Type.Number(),
  name: ImageName,
  webcamId: WebcamId,
});
const LayerSchema = Type.Object({
  id: Type.Integer(),
  level: Type.Enum([...LAYER_LEVELS]),
  cron: Type.String(),
  enabled: Type.Boolean(),
  url: Type.String(),
  cameraId: WebcamId,
});
const UserId = Type.String({ minLength: 1 });

// svc-identity
export const UserChanged = event(
  'identity.user.changed',
  Type.Object({
    id: UserId,
    userName: Type.Optional(Type.String()),
    email: Type.Optional(Type.String()),
    emailConfirmed: Type.Optional(Type.Boolean()),
    change: Type.Optional(Type.String()),
  }),
  'Who a user is now (name, email, confirmed) and what changed; services keep their own copy of known users',
);
export const AccessRevoked = event(
  'identity.access.revoked',
  Type.Object({ ids: Type.Array(Type.String()), expiresAt: Type.String() }),
  'Access tokens with these token or session ids are refused until they expire (log-off, password reset)',
);
export const MailSend = event(
  'mail.send',
  Type.Object({
    to: Type.String(),
    subject: Type.String(),
    text: Type.String(),
    replyTo: Type.Optional(Type.String()),
    eventId: Type.Optional(Type.String()),
  }),
  'A mail to send once its change committed; delivered once per event id',
);
export const PasswordRecoveryRequested = event(
  'identity.password.recovery',
  Type.Object({ email: Type.String(), eventId: Type.Optional(Type.String()) }),
  'Somebody asked for a reset code; svc-identity mails it out of the request',
);

// svc-webcam
export const CameraUpserted = event(
  'webcam.camera.upserted',
  Type.Intersect([WebcamSchema, Type.Object({ position: Type.Optional(Position) })]),
  'A camera was created or changed (a new demo camera with its first position)',
);
export const CameraDeleted = event(
  'webcam.camera.deleted',
  Type.Object({ id: WebcamId, name: Type.Optional(Type.String()) }),
  'A camera was deleted (the payload is the camera as it was)',
);
export const AccessChanged = event(
  'webcam.access.changed',
  Type.Object({
    webcamId: WebcamId,
    configurations: Type.Array(Type.Object({ userId: Type.Union([UserId, Type.Null()]), quality: QualitySchema })),
    bookings: Type.Array(
      Type.Object({ url: Type.String(), start: Type.String(), end: Type.String(), quality: QualitySchema }),
    ),
    permittedUserIds: Type.Array(UserId),
  }),
  "A camera's whole access state after a change: qualities per user, bookings of referer pages, permitted users",
);
export const BestOfChosen = event(
  'webcam.bestof.chosen',
  Type.Object({ webcamId: WebcamId, day: Day, image: Type.Union([ImageName, Type.Null()]) }),
  "An admin chose a day's best picture, or (null) gave the choice back to the score",
);
/** The picture has the same bytes as the camera's previous one; absent on a picture announced again. */
const FrozenFlag = Type.Optional(Type.Boolean());
export const ImageListed = notice(
  'webcam.image.listed',
  Type.Intersect([ImageSchema, Type.Object({ frozen: FrozenFlag })]),
  'The camera list shows a new picture (frozen: the same bytes as the one before): open pages update',
);
export const CameraListChanged = notice(
  'webcam.list.changed',
  Type.Object({}),
  'Every svc-webcam replica forgets its cached camera list',
);
export const BookedCameras = request(
  'webcam.cameras.booked',
  Type.Object({ refererUserIds: Type.Union([Type.Array(Type.Integer()), Type.Null()]) }),
  Type.Array(WebcamSchema),
  'The cameras booked for these referer users (all cameras for null), as the public sees them',
);

// svc-referer
export const LayerChanged = event(
  'referer.layer.changed',
  Type.Object({ layer: LayerSchema, imageHash: Type.String(), deleted: Type.Boolean() }),
  'A layer was saved (its image changed when the hash did) or deleted',
);
export const LayerImage = request(
  'referer.layer.image',
  Type.Object({ layerId: Type.Integer(), offset: Type.Optional(Type.Integer({ minimum: 0 })) }),
  Type.Union([Type.Object({ total: Type.Integer(), data: Type.String() }), Type.Null()]),
  "A piece of a layer's PNG from `offset` (base64), null when the layer is gone",
);
export const PageOwned = request(
  'referer.page.owned',
  Type.Object({ userId: Type.String(), url: Type.String() }),
  Type.Boolean(),
  'Whether the user has the referer page `url`',
);
export const RefererUserLookup = request(
  'referer.user.get',
  Type.Object({ id: Type.Integer() }),
  Type.Union([Type.Object({ id: Type.Integer(), userEmail: Type.String(), url: Type.String() }), Type.Null()]),
  'A referer user (page) by id, null when unknown',
);

// svc-imaging
export const ImageCaptured = event(
  'imaging.image.captured',
  Type.Intersect([
    ImageSchema,
    Type.Object({ score: Type.Optional(Type.Union([Type.Number(), Type.Null()])), frozen: FrozenFlag }),
  ]),
  'A picture was stored, with its quality score (0–100, 0 when frozen) and whether it has the same bytes as the one before',
);
export const CaptureFailed = event(
  'imaging.capture.failed',
  Type.Object({ webcamId: WebcamId, name: Type.String(), error: Type.String() }),
  "A capture failed, with the reason on the job's record",
);
export const ImagesThinned = event(
  'imaging.images.thinned',
  Type.Object({ webcamId: WebcamId, day: Day, keep: Type.Array(ImageName) }),
  "The archive tiers left only `keep` of a camera's day",
);
export const CameraHealthChanged = event(
  'imaging.camera.health',
  Type.Object({
    webcamId: WebcamId,
    camera: Type.String(),
    state: Type.Union([Type.Literal('offline'), Type.Literal('back')]),
    since: Type.String({ format: 'date-time', description: 'offline: since when; back: the new picture' }),
    reason: Type.Union([Type.Literal('frozen'), Type.Literal('silent'), Type.Null()]),
    eventId: Type.String(),
  }),
  'A camera went offline or delivers again (once per transition across replicas); svc-identity mails the operator',
);
export const CameraRefreshed = notice(
  'imaging.camera.refreshed',
  Type.Object({ webcamId: WebcamId }),
  "Something a camera's delivery depends on changed (capture, access, prune): every replica forgets it",
);
export const AccessApplied = notice(
  'imaging.access.applied',
  Type.Object({ webcamId: WebcamId, camera: Type.String() }),
  "svc-imaging stored a camera's new access state: whoever keeps its pictures by name (the gateway) forgets them",
);
export const CameraApplied = notice(
  'imaging.camera.applied',
  Type.Object({
    camera: Type.Object({
      webcamId: WebcamId,
      name: Type.String(),
      pattern: Type.String(),
      intervalMin: Type.Integer(),
      lat: Type.Union([Type.Number(), Type.Null()]),
      lng: Type.Union([Type.Number(), Type.Null()]),
      direction: Type.Union([Type.Number(), Type.Null()]),
      paused: Type.Boolean(),
    }),
    deleted: Type.Boolean(),
  }),
  'One replica applied a camera change; every replica reschedules',
);
export const LayersApplied = notice(
  'imaging.layers.applied',
  Type.Object({ webcamIds: Type.Array(WebcamId) }),
  "One replica stored a layer change; every replica forgets these cameras' layers",
);
export const CameraInfo = request(
  'imaging.camera.info',
  Type.Object({ webcamId: Type.Integer() }),
  Type.Union([Type.Object({ width: Type.Integer(), height: Type.Integer() }), Type.Null()]),
  "The size of a camera's full picture, null before its first capture",
);

// Every service
/** Each instance of `service` answers; replicas share the queue, so one answers per request. */
export const serviceInfo = <S extends string>(service: S) =>
  request(
    `lakecams.${service}.info` as const,
    Type.Object({}),
    Type.Object({ service: Type.String(), version: Type.String(), pid: Type.Integer() }),
    'Which instance answered: discovery and counting of replicas',
  );

/** The catalogue as a list, for documentation and checks (subjects are unique). */
export const MESSAGES: readonly MessageDefinition[] = [
  UserChanged,
  AccessRevoked,
  MailSend,
  PasswordRecoveryRequested,
  CameraUpserted,
  CameraDeleted,
  AccessChanged,
  BestOfChosen,
  ImageListed,
  CameraListChanged,
  BookedCameras,
  LayerChanged,
  LayerImage,
  PageOwned,
  RefererUserLookup,
  ImageCaptured,
  CaptureFailed,
  ImagesThinned,
  CameraHealthChanged,
  CameraRefreshed,
  AccessApplied,
  CameraApplied,
  LayersApplied,
  CameraInfo,
];
